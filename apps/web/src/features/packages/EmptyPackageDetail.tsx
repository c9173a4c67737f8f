import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** The detail pane of Inbox and Sent before a package is chosen. */
export function EmptyPackageDetail() {
  return (
    <Paper
      sx={{ flex: 1, p: 3, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      aria-label="Package details"
    >
      <Typography color="text.secondary">
        This is where you'll find your package information
      </Typography>
    </Paper>
  );
}
