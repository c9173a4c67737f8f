import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-api';
import { routePrefix } from '../shell/navigation';
import { EmptyPackageDetail } from '../packages/EmptyPackageDetail';

/**
 * /inbox/:slug? — received packages on the left, the selected one on the right. Receiving
 * arrives with package sending; until then the inbox is empty.
 */
export function InboxPage() {
  const canSend = useAppSelector(selectSelectedContract)?.permissions.send ?? false;
  const prefix = routePrefix(useLocation().pathname);

  return (
    <Box sx={{ display: 'flex', gap: 2, p: 3, height: '100%', minHeight: 0 }}>
      <Paper sx={{ width: 360, flexShrink: 0, p: 3 }} aria-label="Received packages">
        <Typography variant="h6" component="h1" gutterBottom>
          Inbox
        </Typography>
        <Typography color="text.secondary">
          You haven't received any packages yet...{' '}
          {canSend && (
            <>
              Why not{' '}
              <Link component={RouterLink} to={`${prefix}/share`}>
                share
              </Link>{' '}
              one?
            </>
          )}
        </Typography>
      </Paper>
      <EmptyPackageDetail />
    </Box>
  );
}
