import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useOnline } from '../../app/use-online';
import { DownloadList } from './DownloadList';
import { downloadsPercent, downloadsTone } from './download-panel-model';
import { selectDownloads } from './downloads-slice';
import { InterruptedUploadItem } from './InterruptedUploadItem';
import { OtherTabUploadItem } from './OtherTabUploadItem';
import { queueNames } from './QueueRing';
import { otherTabsPercent } from './tab-transfers';
import { TransferPanelFrame } from './TransferPanelFrame';
import {
  selectInterruptedUploads,
  selectOtherTabUploads,
  transferPanelCollapsed,
  uploadQueueOpened,
} from './transfers-slice';
import { UploadItem } from './UploadItem';
import { canClearQueue, queuePercent, queueTone, type Tone } from './upload-panel-model';
import { finishedUploadsCleared, selectUploads } from './uploads-slice';

type Queue = 'uploads' | 'downloads';

/** The more pressing of two colours. */
const worse = (a: Tone, b: Tone): Tone =>
  a === 'error' || b === 'error' ? 'error' : a === 'warning' || b === 'warning' ? 'warning' : a;

/**
 * The right-hand transfer panel, there while the upload or download queue has anything in it:
 * collapsed, a ring of the queues' progress and their count; expanded, the queue itself, with
 * the tabs UPLOADS and DOWNLOADS when both exist. Uploads an earlier page left unfinished head
 * the upload queue, to be resumed or discarded; uploads other tabs of the browser run are shown,
 * without controls, below this page's. Once every upload is sent, and nothing downloads, the
 * queue can be cleared.
 */
export function TransferPanel() {
  const dispatch = useAppDispatch();
  const uploads = useAppSelector(selectUploads);
  const downloads = useAppSelector(selectDownloads);
  const expanded = useAppSelector((s) => s.transfers.panelExpanded);
  const interrupted = useAppSelector(selectInterruptedUploads);
  const elsewhere = useAppSelector(selectOtherTabUploads);
  const online = useOnline();
  const [chosen, setChosen] = useState<Queue>('uploads');
  const uploadCount = uploads.length + interrupted.length + elsewhere.length;
  if (uploadCount === 0 && downloads.length === 0) return null;

  const both = uploadCount > 0 && downloads.length > 0;
  const shown: Queue = both ? chosen : uploadCount > 0 ? 'uploads' : 'downloads';
  // An interrupted upload waits for the person, like a paused one.
  const uploadTone = interrupted.length > 0 ? 'error' : queueTone(uploads);
  const uploadPercent = uploads.length > 0 ? queuePercent(uploads) : otherTabsPercent(elsewhere);
  const tone = both
    ? worse(uploadTone, downloadsTone(downloads))
    : uploadCount > 0
      ? uploadTone
      : downloadsTone(downloads);
  const count = uploadCount + downloads.length;
  // Each queue weighs by how many it holds.
  const percent =
    uploadCount === 0
      ? downloadsPercent(downloads)
      : Math.floor(
          (uploadPercent * uploadCount + downloadsPercent(downloads) * downloads.length) / count,
        );
  const collapse = () => dispatch(transferPanelCollapsed());
  const clear = () => {
    dispatch(finishedUploadsCleared());
    collapse();
  };

  return (
    <TransferPanelFrame
      names={both ? queueNames.transfers : queueNames[shown]}
      percent={percent}
      count={count}
      tone={tone}
      expanded={expanded}
      onOpen={() => dispatch(uploadQueueOpened())}
      onCollapse={collapse}
      title={both ? 'Transfers' : shown === 'uploads' ? 'Uploads' : 'Downloads'}
      headerAction={
        canClearQueue(uploads, downloads.length) && (
          <Button size="small" onClick={clear}>
            Clear
          </Button>
        )
      }
    >
      {both && (
        <Tabs
          value={shown}
          onChange={(_event, value: Queue) => setChosen(value)}
          variant="fullWidth"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="uploads" label="UPLOADS" />
          <Tab value="downloads" label="DOWNLOADS" />
        </Tabs>
      )}
      {shown === 'uploads' ? (
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
      ) : (
        <DownloadList downloads={downloads} />
      )}
    </TransferPanelFrame>
  );
}
