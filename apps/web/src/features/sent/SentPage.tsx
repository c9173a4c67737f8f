import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { EmptyPackageDetail } from '../packages/EmptyPackageDetail';

/** /sent/:slug? — packages the user sent. Sending arrives later; until then the list is empty. */
export function SentPage() {
  return (
    <Box sx={{ display: 'flex', gap: 2, p: 3, height: '100%', minHeight: 0 }}>
      <Paper sx={{ width: 360, flexShrink: 0, p: 3 }} aria-label="Sent packages">
        <Typography variant="h6" component="h1" gutterBottom>
          Sent
        </Typography>
        <Typography color="text.secondary">You haven't sent any packages yet...</Typography>
      </Paper>
      <EmptyPackageDetail />
    </Box>
  );
}
