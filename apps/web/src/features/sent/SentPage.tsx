import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

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
      <Paper
        sx={{ flex: 1, p: 3, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        aria-label="Package details"
      >
        <Typography color="text.secondary">
          This is where you'll find your package information
        </Typography>
      </Paper>
    </Box>
  );
}
