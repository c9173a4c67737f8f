import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Logo } from '../../components/Logo';
import { ScreenNotice } from '../../components/ScreenNotice';
import { debugTools } from './debug-tools';

/** A diagnostics page whose tool arrives with the transfer engine. */
export function DebugToolPage({ path }: { path: (typeof debugTools)[number]['path'] }) {
  const tool = debugTools.find((t) => t.path === path);
  return (
    <Box component="main" sx={{ p: 4, maxWidth: 960, mx: 'auto' }}>
      <Logo />
      <ScreenNotice title={tool?.title ?? 'Diagnostics'}>
        <p>{tool?.description}</p>
        <p>This tool is not available yet: it arrives with the transfer engine.</p>
        <Link component={RouterLink} to="/debug">
          All diagnostics
        </Link>
      </ScreenNotice>
    </Box>
  );
}
