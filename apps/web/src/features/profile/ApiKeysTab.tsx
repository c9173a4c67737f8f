import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { messages, type ApiKey, type CreatedApiKey } from '@filerunner/protocol';
import { useDateTimeFormat } from '../../app/time-zone';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/toast-context';
import { useListApiKeysQuery, useRevokeApiKeyMutation } from '../api-keys/api-keys-api';
import { CreateApiKeyDialog, NewApiKeyDialog } from './ApiKeyDialogs';

/** The user's API keys: create (the key is shown once), list, revoke. */
export function ApiKeysTab() {
  const formatDateTime = useDateTimeFormat();
  const toast = useToast();
  const { data: keys = [], isLoading, isError, isSuccess } = useListApiKeysQuery();
  const [revokeApiKey] = useRevokeApiKeyMutation();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [busy, setBusy] = useState(false);

  const revoke = async (key: ApiKey) => {
    setBusy(true);
    const result = await revokeApiKey({ params: { uuid: key.uuid } });
    setBusy(false);
    setRevoking(null);
    if (result.error) toast({ severity: 'error', message: messages.apiKeys.failed });
  };

  return (
    <>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography color="text.secondary">
          API keys let scripts and other programs use FileRunner as you.
        </Typography>
        <Button variant="contained" onClick={() => setCreating(true)}>
          Create API Key
        </Button>
      </Stack>
      {isLoading && <CircularProgress aria-label="Loading API keys" />}
      {isError && <Alert severity="error">{messages.apiKeys.failed}</Alert>}
      {isSuccess && keys.length === 0 && (
        <Typography color="text.secondary">You have no API keys yet.</Typography>
      )}
      {keys.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label="API keys">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {keys.map((key) => (
                <TableRow key={key.uuid} data-testid="api-key-row">
                  <TableCell>{key.name}</TableCell>
                  <TableCell>{formatDateTime(key.created_timestamp)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={key.revoked ? 'Revoked' : 'Valid'}
                      color={key.revoked ? 'default' : 'success'}
                    />
                  </TableCell>
                  <TableCell align="right">
                    {!key.revoked && (
                      <Button size="small" color="error" onClick={() => setRevoking(key)}>
                        Revoke
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <CreateApiKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <NewApiKeyDialog apiKey={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke API key"
        confirmLabel="Revoke"
        destructive
        busy={busy}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      >
        Programs using the key "{revoking?.name}" will stop working at once. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
