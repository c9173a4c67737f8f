import { Outlet } from 'react-router';
import Box from '@mui/material/Box';
import { useAppSelector } from '../../app/hooks';
import { offlineNoticeHeight } from '../../components/OfflineNotice';
import { selectContracts } from '../projects/projects-api';
import { RealtimeUpdates } from '../realtime/use-realtime';
import { TransferPanel } from '../transfers/TransferPanel';
import { ProjectSelector } from './ProjectSelector';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useCollapsedLayout } from './use-layout';

/**
 * The main shell: project strip (several projects only), sidebar, top bar, the screen, and the
 * transfer panel at the right while the upload queue has anything in it.
 */
export function ShellLayout() {
  const collapsed = useCollapsedLayout();
  const projectCount = useAppSelector(selectContracts).length;

  return (
    <Box
      sx={{
        display: 'flex',
        height: '100vh',
        overflow: 'hidden',
        boxSizing: 'border-box',
        // The offline banner lies over the top of the window; the shell starts below it.
        pt: offlineNoticeHeight,
      }}
    >
      {projectCount > 1 && <ProjectSelector collapsed={collapsed} />}
      <Sidebar collapsed={collapsed} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar />
        <Box component="main" sx={{ flex: 1, overflow: 'auto' }}>
          <Outlet />
        </Box>
      </Box>
      <TransferPanel />
      {/* New packages appear in the Inbox without a reload. */}
      <RealtimeUpdates />
    </Box>
  );
}
