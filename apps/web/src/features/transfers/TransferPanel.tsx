import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useOnline } from '../../app/use-online';
import { offlineNoticeHeight } from '../../components/OfflineNotice';
import { QueueRing } from './QueueRing';
import { InterruptedUploadItem } from './InterruptedUploadItem';
import { OtherTabUploadItem } from './OtherTabUploadItem';
import { otherTabsPercent } from './tab-transfers';
import {
  selectInterruptedUploads,
  selectOtherTabUploads,
  transferPanelCollapsed,
  uploadQueueOpened,
} from './transfers-slice';
import { UploadItem } from './UploadItem';
import {
  canClearQueue,
  PANEL_COLLAPSED_WIDTH,
  PANEL_EXPANDED_WIDTH,
  queuePercent,
  queueTone,
} from './upload-panel-model';
import { finishedUploadsCleared, selectUploads } from './uploads-slice';

/**
 * The right-hand transfer panel, there while the upload queue has anything in it: collapsed, a
 * ring of the queue's progress; expanded, the queue itself over the dimmed screen (a click on
 * the dimmed part collapses it). Uploads an earlier page left unfinished head the queue, to be
 * resumed or discarded; uploads other tabs of the browser run are shown, without controls, below
 * this page's. Once every upload is sent the queue can be cleared.
 */
export function TransferPanel() {
  const dispatch = useAppDispatch();
  const uploads = useAppSelector(selectUploads);
  const expanded = useAppSelector((s) => s.transfers.panelExpanded);
  const downloads = useAppSelector((s) => s.downloads.queue.length);
  const interrupted = useAppSelector(selectInterruptedUploads);
  const elsewhere = useAppSelector(selectOtherTabUploads);
  const online = useOnline();
  if (uploads.length === 0 && interrupted.length === 0 && elsewhere.length === 0) return null;

  // An interrupted upload waits for the person, like a paused one.
  const tone = interrupted.length > 0 ? 'error' : queueTone(uploads);
  const collapse = () => dispatch(transferPanelCollapsed());
  const clear = () => {
    dispatch(finishedUploadsCleared());
    collapse();
  };

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
        percent={uploads.length > 0 ? queuePercent(uploads) : otherTabsPercent(elsewhere)}
        count={uploads.length + interrupted.length + elsewhere.length}
        tone={tone}
        onOpen={() => dispatch(uploadQueueOpened())}
      />
      <Drawer
        anchor="right"
        open={expanded}
        onClose={collapse}
        slotProps={{
          paper: {
            sx: {
              width: PANEL_EXPANDED_WIDTH,
              maxWidth: '100vw',
              // Below the offline banner, so the queue's header stays in reach while offline.
              top: offlineNoticeHeight,
              height: `calc(100% - ${offlineNoticeHeight})`,
            },
            role: 'region',
            'aria-label': 'Upload queue',
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
          <IconButton aria-label="Collapse the upload queue" onClick={collapse} edge="start">
            <ChevronRight />
          </IconButton>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Uploads
          </Typography>
          {canClearQueue(uploads, downloads) && (
            <Button size="small" onClick={clear}>
              Clear
            </Button>
          )}
        </Box>
        <Box component="ul" aria-label="Uploads" sx={{ m: 0, px: 2, overflowY: 'auto' }}>
          {interrupted.map((upload) => (
            <InterruptedUploadItem key={upload.id} upload={upload} />
          ))}
          {uploads.map((upload) => (
            <UploadItem key={upload.id} upload={upload} online={online} />
          ))}
          {elsewhere.map((upload) => (
            <OtherTabUploadItem key={upload.id} upload={upload} />
          ))}
        </Box>
      </Drawer>
    </Box>
  );
}
