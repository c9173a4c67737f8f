import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { Logo } from './Logo';

/** Shown while the user or the projects load. */
export function Splash() {
  return (
    <Box
      role="progressbar"
      aria-label="Loading"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 3,
      }}
    >
      <Logo />
      <CircularProgress />
    </Box>
  );
}
