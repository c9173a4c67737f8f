import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ExpiryChips } from './ExpiryChips';
import { useDateTimeFormat } from '../../app/time-zone';
import { formatExpiry } from './package-format';
import { formatSize } from '@filerunner/protocol';

export interface SummaryPackage {
  name: string;
  sender: { name: string } | null;
  date_sent: string;
  valid_date: string;
  expires_date: string;
  expired: boolean;
  expires_soon: boolean;
  bytes: number;
  num_files: number;
  message: string;
}

/** The top of a package's detail: name, chips, who sent it, its access period and message. */
export function PackageSummary({ pkg, actions }: { pkg: SummaryPackage; actions?: ReactNode }) {
  const formatDateTime = useDateTimeFormat();
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h2" sx={{ flex: 1, wordBreak: 'break-word' }}>
          {pkg.name}
        </Typography>
        <ExpiryChips expired={pkg.expired} expiresSoon={pkg.expires_soon} />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Sent by {pkg.sender?.name ?? 'a removed user'} on {formatDateTime(pkg.date_sent)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Available from {formatDateTime(pkg.valid_date)} · {formatExpiry(pkg.expires_date)} (
        {formatDateTime(pkg.expires_date)})
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {pkg.num_files} file{pkg.num_files === 1 ? '' : 's'}, {formatSize(pkg.bytes)}
      </Typography>
      {pkg.message && (
        <Typography
          sx={{ mt: 2, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          data-testid="package-message"
        >
          {pkg.message}
        </Typography>
      )}
      {actions && (
        <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
          {actions}
        </Stack>
      )}
    </Box>
  );
}
