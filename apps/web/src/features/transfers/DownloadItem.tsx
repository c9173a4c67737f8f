import { memo } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { DownloadControls } from './DownloadControls';
import { DownloadErrorAlert } from './DownloadErrorAlert';
import { downloadStatusLabel, downloadTone } from './download-panel-model';
import type { DownloadRecord } from './downloads-slice';
import { downloadFigures } from './transfer-format';
import { UploadItemFrame } from './UploadItemFrame';

/** Where a download lands, as the queue says it. */
function destinationOf(download: DownloadRecord): string {
  if (download.method === 'browser') return 'Standard browser download';
  const folder = download.rootFolder ?? 'a folder';
  return download.method === 'unpack' ? `Unpacking into ${folder}` : `Saving into ${folder}`;
}

/**
 * One download in the queue: what it is (a package, or one file of it), where it lands, how far
 * it is while it moves, what went wrong, and the buttons its status offers.
 */
// Memoised: a record changes identity only when its own fields change, so a progress tell
// re-renders its row alone, not the whole queue.
export const DownloadItem = memo(function DownloadItem(props: { download: DownloadRecord }) {
  const { download } = props;
  const tone = downloadTone(download);
  const moving = download.status === 'DOWNLOADING';
  const figures = moving && download.progress ? downloadFigures(download.progress) : null;
  return (
    <UploadItemFrame
      id={download.identifier}
      name={download.packageFile ?? download.receivedPackage}
      status={download.status}
      statusLabel={downloadStatusLabel(download)}
      statusColor={tone === 'primary' ? 'text.secondary' : `${tone}.main`}
    >
      <Typography variant="body2" color="text.secondary">
        {[download.packageFile && download.receivedPackage, destinationOf(download)]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      {(moving || download.status === 'COMPLETED') && (
        <LinearProgress
          variant="determinate"
          value={download.percentComplete}
          color={tone}
          aria-label={`${download.packageFile ?? download.receivedPackage} progress`}
          sx={{ my: 1, height: 6, borderRadius: 3 }}
        />
      )}
      {figures && (
        <Typography variant="body2" color="text.secondary" data-testid="download-figures">
          {[`${download.percentComplete}%`, figures.bytes, figures.rate, figures.timeLeft]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
      )}
      {download.receipted && (
        <Typography variant="caption" color="text.secondary" data-testid="download-receipted">
          Delivery receipted: the sender has a signed receipt of it.
        </Typography>
      )}
      <DownloadErrorAlert download={download} />
      <DownloadControls download={download} />
    </UploadItemFrame>
  );
});
