import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { isSettled } from '@filerunner/transfer';
import type { TabUpload } from './tab-transfers';
import { percentOf, progressFigures } from './transfer-format';
import { UploadItemFrame } from './UploadItemFrame';
import { sentMessageOf, uploadStatusLabel } from './upload-panel-model';

/**
 * An upload another tab of this browser runs, as that tab last told it: its status and
 * progress, and no controls (they are in that tab, which owns the upload and its ledger).
 */
export function OtherTabUploadItem(props: { upload: TabUpload }) {
  const { upload } = props;
  const sent = isSettled(upload.status);
  const moving = upload.status === 'UPLOADING' || upload.status === 'RETRYING';
  const figures = progressFigures(upload.progress, moving);
  const percent = sent
    ? 100
    : percentOf(upload.progress.completedBytes, upload.progress.totalBytes);
  const message = sentMessageOf({ status: upload.status });

  return (
    <UploadItemFrame
      id={`other-tab-${upload.id}`}
      name={upload.name}
      status={`OTHER_TAB_${upload.status}`}
      statusLabel={`${uploadStatusLabel[upload.status]} in another tab`}
      statusColor="text.secondary"
    >
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={`${upload.name} progress`}
        sx={{ my: 1, height: 6, borderRadius: 3 }}
      />
      <Typography variant="body2" color="text.secondary" data-testid="upload-figures">
        {[`${percent}%`, figures.files, figures.bytes, figures.rate, figures.timeLeft]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      {message ? (
        <Alert severity={upload.status === 'COMPLETED' ? 'success' : 'warning'} sx={{ mt: 1 }}>
          {message}
        </Alert>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          This upload is running in another tab of this browser. Keep that tab open until it is
          sent.
        </Typography>
      )}
    </UploadItemFrame>
  );
}
