import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import RemoveCircleOutlined from '@mui/icons-material/RemoveCircleOutlined';
import type { NotificationDraft, RowProblem } from './settings-form';

/** The people told by email about the project's packages: name, email and an enabled switch. */
export function NotificationRows(props: {
  rows: NotificationDraft[];
  problems: RowProblem[] | null;
  error: string | undefined;
  onChange: (rows: NotificationDraft[]) => void;
}) {
  const { rows } = props;
  const set = (key: number, change: Partial<NotificationDraft>) =>
    props.onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const add = () =>
    props.onChange([
      ...rows,
      { key: Math.max(-1, ...rows.map((r) => r.key)) + 1, name: '', email: '', enabled: true },
    ]);

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
        Notifications
      </Typography>
      <Typography variant="body2" color="text.secondary">
        These people are told by email about the packages sent in this project.
      </Typography>
      {rows.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Nobody is notified yet.
        </Typography>
      )}
      {rows.map((row, index) => {
        const problem = props.problems?.[index];
        return (
          <Stack
            key={row.key}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 0, sm: 2 }}
            sx={{ alignItems: { sm: 'flex-start' } }}
            data-testid="notification-row"
          >
            <TextField
              label="Name"
              size="small"
              value={row.name}
              onChange={(e) => set(row.key, { name: e.target.value })}
              error={Boolean(problem?.name)}
            />
            <TextField
              label="Email"
              size="small"
              type="email"
              value={row.email}
              onChange={(e) => set(row.key, { email: e.target.value })}
              error={Boolean(problem?.email)}
            />
            <FormControlLabel
              sx={{ mt: { sm: 2 }, flexShrink: 0 }}
              label="Enabled"
              control={
                <Switch
                  checked={row.enabled}
                  onChange={(_e, enabled) => set(row.key, { enabled })}
                />
              }
            />
            <Box sx={{ pt: { sm: 2 } }}>
              <IconButton
                aria-label={`Remove notification ${index + 1}`}
                onClick={() => props.onChange(rows.filter((r) => r.key !== row.key))}
              >
                <RemoveCircleOutlined />
              </IconButton>
            </Box>
          </Stack>
        );
      })}
      {props.error && (
        <Typography color="error" variant="body2" role="alert" sx={{ mt: 1 }}>
          {props.error}
        </Typography>
      )}
      <Button startIcon={<Add />} onClick={add} sx={{ mt: 1 }}>
        Add notification
      </Button>
    </Box>
  );
}
