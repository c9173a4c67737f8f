import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * One entry of the upload queue as the panel lists it: the package's name as the entry's heading
 * and its status on the same line (in `statusColor`), then what the entry shows below.
 */
export function UploadItemFrame(props: {
  /** Names the heading, which labels the entry. */
  id: string;
  name: string;
  /** The status as tests and styles read it (`data-status`). */
  status: string;
  statusLabel: string;
  statusColor: string;
  children: ReactNode;
}) {
  const titleId = `${props.id}-name`;
  return (
    <Box
      component="li"
      aria-labelledby={titleId}
      data-status={props.status}
      sx={{ listStyle: 'none', py: 2, borderBottom: 1, borderColor: 'divider' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2 }}>
        <Typography
          id={titleId}
          variant="subtitle1"
          component="h3"
          sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {props.name}
        </Typography>
        {/* Through sx: Typography's own `color` takes palette names only, not 'warning.main'. */}
        <Typography variant="body2" sx={{ color: props.statusColor }} data-testid="upload-status">
          {props.statusLabel}
        </Typography>
      </Box>
      {props.children}
    </Box>
  );
}
