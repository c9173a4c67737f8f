import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { DownloadsState, DownloadRecord } from './downloads-slice';
import { cancelDownload, moveDownloadToFolder, retryDownload } from './download-actions';

/** Whether this page can download into a folder (the picker and the engine are there). */
export const useFolderDownloads = () =>
  useAppSelector((state) => (state as { downloads: DownloadsState }).downloads.folderDownloads);

/**
 * The buttons a download's status offers: Queued, Select download folder and Cancel;
 * Downloading, Cancel; Failed, Retry, Standard browser download, Download to new folder and
 * Cancel; Completed and Partially Failed, none. The folder ones only where folders can be used.
 */
export function DownloadControls(props: { download: DownloadRecord }) {
  const { download } = props;
  const { identifier: id, status } = download;
  const dispatch = useAppDispatch();
  const folders = useFolderDownloads();
  const toFolder = () => void dispatch(moveDownloadToFolder(id));
  const cancel = (
    <Button key="cancel" size="small" color="error" onClick={() => dispatch(cancelDownload(id))}>
      Cancel
    </Button>
  );

  let buttons: React.ReactNode[] = [];
  if (status === 'QUEUED') {
    buttons = [
      folders && (
        <Button key="folder" size="small" onClick={toFolder}>
          Select download folder
        </Button>
      ),
      cancel,
    ];
  } else if (status === 'DOWNLOADING') {
    buttons = [cancel];
  } else if (status === 'FAILED') {
    buttons = [
      <Button
        key="retry"
        size="small"
        // The folder it was going to is gone: only another folder or the browser can take it.
        disabled={download.error?.kind === 'directory_handle_invalid'}
        onClick={() => dispatch(retryDownload(id))}
      >
        Retry
      </Button>,
      <Button
        key="browser"
        size="small"
        onClick={() => dispatch(retryDownload(id, { kind: 'browser' }))}
      >
        Standard browser download
      </Button>,
      folders && (
        <Button key="new-folder" size="small" onClick={toFolder}>
          Download to new folder
        </Button>
      ),
      cancel,
    ];
  }
  buttons = buttons.filter(Boolean);
  if (buttons.length === 0) return null;
  return <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>{buttons}</Box>;
}
