import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Logo } from '../../components/Logo';

/** The frame of a diagnostics tool: the logo, its title and the way back to all of them. */
export function DebugLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="main" sx={{ p: { xs: 2, md: 4 }, maxWidth: 960, mx: 'auto' }}>
      <Logo />
      <Typography variant="h4" component="h1" sx={{ mt: 3, mb: 1 }}>
        {title}
      </Typography>
      <Link component={RouterLink} to="/debug">
        All diagnostics
      </Link>
      <Box sx={{ mt: 3 }}>{children}</Box>
    </Box>
  );
}
