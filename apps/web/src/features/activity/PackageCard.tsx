import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ActivityPackage } from '@filerunner/protocol';
import { formatSize } from '@filerunner/protocol';
import { useDateTimeFormat } from '../../app/time-zone';
import { formatExpiry } from '../packages/package-format';

const downloadLabel = {
  none: { label: 'Not downloaded', color: 'default' },
  partial: { label: 'Partially downloaded', color: 'warning' },
  complete: { label: 'Downloaded', color: 'success' },
} as const;

/** One package of the activity: who sent it when, its size, and each recipient's downloads. */
export function PackageCard({ pkg }: { pkg: ActivityPackage }) {
  const formatDateTime = useDateTimeFormat();
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, opacity: pkg.expired ? 0.6 : 1 }}
      component="article"
      aria-label={pkg.name}
      data-testid="activity-package"
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, wordBreak: 'break-word' }}>
          {pkg.name}
        </Typography>
        {pkg.expired && <Chip size="small" label="Expired" />}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Sent by {pkg.sender ? `${pkg.sender.name} (${pkg.sender.email})` : 'a removed user'} on{' '}
        {formatDateTime(pkg.date_sent)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {formatExpiry(pkg.expires_date)} ({formatDateTime(pkg.expires_date)}) ·{' '}
        {formatSize(pkg.bytes)} · {pkg.num_files} file{pkg.num_files === 1 ? '' : 's'}
      </Typography>
      <List dense aria-label={`Recipients of ${pkg.name}`}>
        {pkg.recipients.map((r) => {
          const status = downloadLabel[r.downloaded];
          return (
            <ListItem
              key={r.email}
              disableGutters
              sx={{ opacity: r.removed ? 0.6 : 1 }}
              secondaryAction={
                <Stack direction="row" spacing={0.5}>
                  {r.removed && <Chip size="small" label="Access removed" />}
                  <Chip size="small" label={status.label} color={status.color} />
                </Stack>
              }
            >
              <ListItemText primary={r.name} secondary={r.name === r.email ? null : r.email} />
            </ListItem>
          );
        })}
      </List>
    </Paper>
  );
}
