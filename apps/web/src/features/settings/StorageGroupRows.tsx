import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import RemoveCircleOutlined from '@mui/icons-material/RemoveCircleOutlined';
import {
  STORAGE_GROUP_NAME_MAX,
  STORAGE_GROUPS_MAX,
  type StorageGroupDraft,
} from './settings-form';

/** The project's storage locations (storage app groups): a name each, added and removed here. */
export function StorageGroupRows(props: {
  rows: StorageGroupDraft[];
  problems: boolean[] | null;
  error: string | undefined;
  onChange: (rows: StorageGroupDraft[]) => void;
}) {
  const { rows } = props;
  const rename = (key: number, name: string) =>
    props.onChange(rows.map((row) => (row.key === key ? { ...row, name } : row)));
  const add = () =>
    props.onChange([...rows, { key: Math.max(-1, ...rows.map((r) => r.key)) + 1, name: '' }]);

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
        Storage locations
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Senders who show the storage choice can pick one of these for a package.
      </Typography>
      {rows.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          No storage locations yet.
        </Typography>
      )}
      {rows.map((row, index) => (
        <Stack
          key={row.key}
          direction="row"
          spacing={2}
          sx={{ alignItems: 'flex-start', mt: 1 }}
          data-testid="storage-location-row"
        >
          <TextField
            label="Location name"
            size="small"
            value={row.name}
            onChange={(e) => rename(row.key, e.target.value)}
            error={Boolean(props.problems?.[index])}
            slotProps={{ htmlInput: { maxLength: STORAGE_GROUP_NAME_MAX } }}
          />
          <IconButton
            aria-label={`Remove storage location ${index + 1}`}
            onClick={() => props.onChange(rows.filter((r) => r.key !== row.key))}
          >
            <RemoveCircleOutlined />
          </IconButton>
        </Stack>
      ))}
      {props.error && (
        <Typography color="error" variant="body2" role="alert" sx={{ mt: 1 }}>
          {props.error}
        </Typography>
      )}
      <Button
        startIcon={<Add />}
        onClick={add}
        disabled={rows.length >= STORAGE_GROUPS_MAX}
        sx={{ mt: 1 }}
      >
        Add storage location
      </Button>
    </Box>
  );
}
