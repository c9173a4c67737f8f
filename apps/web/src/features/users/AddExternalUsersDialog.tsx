import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Add from '@mui/icons-material/Add';
import RemoveCircleOutlined from '@mui/icons-material/RemoveCircleOutlined';
import { firstErrorMessage } from '../../app/api-client';
import { PhoneField } from '../../components/PhoneField';
import { useToast } from '../../components/toast-context';
import { externalRowProblems, externalUsersBody, type ExternalRow } from './user-forms';
import { useAddExternalUsersMutation } from './users-api';

/** A row with a key of its own, so removing a row never hands its inputs to its neighbour. */
type KeyedRow = ExternalRow & { key: number };
const firstRow: KeyedRow = { key: 0, email: '', mobile: '' };
const addFailed = "Sorry, we couldn't add those users. Please try again.";

/** Adds partners reached by email and mobile only: no account to activate, no send permission. */
export function AddExternalUsersDialog(props: {
  open: boolean;
  slug: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const [addExternalUsers] = useAddExternalUsersMutation();
  const [rows, setRows] = useState<KeyedRow[]>([firstRow]);
  const [errors, setErrors] = useState<(string | undefined)[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const setRow = (index: number, change: Partial<ExternalRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const close = () => {
    setRows([firstRow]);
    setErrors([]);
    setFailure(null);
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problems = externalRowProblems(rows);
    setErrors(problems);
    if (problems.some(Boolean)) return;
    setSaving(true);
    try {
      const added = await addExternalUsers({
        params: { slug: props.slug },
        body: externalUsersBody(rows),
      }).unwrap();
      toast({
        severity: 'success',
        message: `${added.length} external user${added.length === 1 ? '' : 's'} added.`,
      });
      close();
    } catch (error) {
      // The server lists every problem; the spec shows the first.
      setFailure(firstErrorMessage(error, addFailed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="md">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Add External Users</DialogTitle>
        <DialogContent>
          <DialogContentText>
            External users receive packages through a link and, where the project asks for it, a PIN
            sent to their mobile. They cannot send packages.
          </DialogContentText>
          {failure && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {failure}
            </Alert>
          )}
          {rows.map((row, index) => (
            <Stack
              key={row.key}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 0, sm: 2 }}
              sx={{ alignItems: { sm: 'flex-start' } }}
              data-testid="external-user-row"
            >
              <TextField
                label="Email"
                required
                value={row.email}
                onChange={(e) => setRow(index, { email: e.target.value })}
                error={Boolean(errors[index])}
                helperText={errors[index]}
              />
              <PhoneField
                label="Mobile"
                value={row.mobile}
                onChange={(mobile) => setRow(index, { mobile })}
              />
              <Box sx={{ pt: { sm: 3 } }}>
                <IconButton
                  aria-label={`Remove row ${index + 1}`}
                  disabled={rows.length === 1}
                  onClick={() => {
                    setRows((current) => current.filter((r) => r.key !== row.key));
                    setErrors([]);
                  }}
                >
                  <RemoveCircleOutlined />
                </IconButton>
              </Box>
            </Stack>
          ))}
          <Button
            startIcon={<Add />}
            onClick={() =>
              setRows((current) => [
                ...current,
                { key: Math.max(...current.map((r) => r.key)) + 1, email: '', mobile: '' },
              ])
            }
            sx={{ mt: 1 }}
          >
            Add another
          </Button>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            Add External Users
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
