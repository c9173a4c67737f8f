import Box from '@mui/material/Box';
import { Logo } from '../../components/Logo';
import { ScreenNotice } from '../../components/ScreenNotice';

/** /inbox/external/:slug? — a package opened by link and key, without an account. */
export function ExternalPackagePage() {
  return (
    <Box component="main" sx={{ p: 3 }}>
      <Logo />
      <ScreenNotice title="Shared package">
        Opening packages by link is not available yet: this page arrives with package sending.
      </ScreenNotice>
    </Box>
  );
}
