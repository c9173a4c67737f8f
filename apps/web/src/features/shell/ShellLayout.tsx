import { useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { useAppSelector } from '../../app/hooks';
import { offlineNoticeHeight } from '../../components/OfflineNotice';
import { selectContracts } from '../projects/projects-api';
import { RealtimeUpdates } from '../realtime/use-realtime';
import { TransferPanel } from '../transfers/TransferPanel';
import { ProjectSelector } from './ProjectSelector';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useCollapsedLayout, useNarrowLayout } from './use-layout';

/**
 * The main shell: project strip (several projects only), sidebar, top bar, the screen, and the
 * transfer panel at the right while the upload queue has anything in it. On a narrow window the
 * strip and the sidebar move into a menu the top bar opens.
 */
export function ShellLayout() {
  const collapsed = useCollapsedLayout();
  const narrow = useNarrowLayout();
  const projectCount = useAppSelector(selectContracts).length;
  const { pathname } = useLocation();
  // The menu stays open on the screen it was opened on: choosing a screen (or a project) in it
  // closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;

  const navigation = (
    <>
      {projectCount > 1 && <ProjectSelector collapsed={collapsed && !narrow} />}
      <Sidebar collapsed={collapsed && !narrow} />
    </>
  );

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
      {narrow ? (
        <Drawer
          variant="temporary"
          open={menuOpen}
          onClose={() => setMenuOpenOn(null)}
          slotProps={{
            paper: {
              sx: {
                flexDirection: 'row',
                maxWidth: '85vw',
                top: offlineNoticeHeight,
                height: `calc(100% - ${offlineNoticeHeight})`,
              },
            },
          }}
        >
          {navigation}
        </Drawer>
      ) : (
        navigation
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar onOpenMenu={narrow ? () => setMenuOpenOn(pathname) : undefined} />
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
