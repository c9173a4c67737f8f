import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The FileRunner mark, with the name beside it unless `compact`. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box component="img" src="/favicon.svg" alt="FileRunner" sx={{ width: 32, height: 32 }} />
      {!compact && (
        <Typography variant="h6" component="span" sx={{ fontWeight: 700, color: 'primary.main' }}>
          FileRunner
        </Typography>
      )}
    </Box>
  );
}
