import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { offlineNoticeHeight } from '../../components/OfflineNotice';
import { QueueRing, type QueueNames } from './QueueRing';
import { PANEL_COLLAPSED_WIDTH, PANEL_EXPANDED_WIDTH, type Tone } from './upload-panel-model';

/**
 * The transfer panel's frame: collapsed, a ring of the queue's progress; expanded, the queue
 * as a modal dialog over the dimmed screen (a click on the dimmed part or Escape collapses it,
 * and focus goes back to the ring), under a header in the queue's colour.
 */
export function TransferPanelFrame(props: {
  names: QueueNames;
  percent: number;
  count: number;
  tone: Tone;
  expanded: boolean;
  onOpen: () => void;
  onCollapse: () => void;
  title: string;
  /** Beside the title (the Clear button). */
  headerAction?: ReactNode;
  children: ReactNode;
}) {
  const { names, tone } = props;
  return (
    <Box
      component="aside"
      aria-label="Transfers"
      sx={{
        width: PANEL_COLLAPSED_WIDTH,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        justifyContent: 'center',
        pt: 2,
      }}
    >
      <QueueRing
        names={names}
        percent={props.percent}
        count={props.count}
        tone={tone}
        onOpen={props.onOpen}
      />
      <Drawer
        anchor="right"
        open={props.expanded}
        onClose={props.onCollapse}
        slotProps={{
          paper: {
            sx: {
              width: PANEL_EXPANDED_WIDTH,
              maxWidth: '100vw',
              // Below the offline banner, so the queue's header stays in reach while offline.
              top: offlineNoticeHeight,
              height: `calc(100% - ${offlineNoticeHeight})`,
            },
            // The open queue covers the dimmed page, which it hides from screen readers and
            // keeps focus away from: a modal dialog (the drawer's own role), named by its queue.
            'aria-label': names.queue,
          },
        }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 2,
            py: 1.5,
            borderBottom: 1,
            borderColor: 'divider',
            borderTop: 4,
            borderTopColor: `${tone}.main`,
          }}
        >
          <IconButton
            aria-label={`Collapse the ${names.queue.toLowerCase()}`}
            onClick={props.onCollapse}
            edge="start"
          >
            <ChevronRight />
          </IconButton>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {props.title}
          </Typography>
          {props.headerAction}
        </Box>
        {props.children}
      </Drawer>
    </Box>
  );
}
