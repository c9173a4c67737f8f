import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { messages, type CreatedApiKey } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { useCreateApiKeyMutation } from '../api-keys/api-keys-api';

/** Asks for a name and creates the key. */
export function CreateApiKeyDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const [createApiKey] = useCreateApiKeyMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const close = () => {
    setName('');
    setError(null);
    setFailure(null);
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setError(messages.apiKeys.nameRequired);
      return;
    }
    setError(null);
    setSaving(true);
    const result = await createApiKey({ body: { name: name.trim() } });
    setSaving(false);
    if (result.data) {
      setName('');
      props.onCreated(result.data);
    } else {
      // The server's reason when it gave one (a key too many, a name it cannot keep).
      setFailure(firstErrorMessage(result.error, messages.apiKeys.failed));
    }
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Create API Key</DialogTitle>
        <DialogContent>
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField
            label="Name"
            name="name"
            autoFocus
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(error)}
            helperText={error ?? 'What the key is for, so you can recognise it later.'}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Shows a new key's secret, the only time it is ever shown. */
export function NewApiKeyDialog(props: { apiKey: CreatedApiKey | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const secret = props.apiKey?.key ?? '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Dialog open={props.apiKey !== null} onClose={props.onClose} fullWidth maxWidth="sm">
      <DialogTitle>API key created</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 1 }}>
          Copy this key now. It will not be shown again; if you lose it, revoke it and create a new
          one.
        </Alert>
        <TextField
          label={props.apiKey?.name ?? 'Key'}
          value={secret}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'new-api-key' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={copied ? 'Copied' : 'Copy'}>
                    <IconButton aria-label="Copy key" onClick={() => void copy()} edge="end">
                      <ContentCopy />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
