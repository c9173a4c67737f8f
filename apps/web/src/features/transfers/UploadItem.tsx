import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { UploadRecord } from '@filerunner/transfer';
import { progressFigures } from './transfer-format';
import { UploadBannerAlert } from './UploadBannerAlert';
import { UploadControls } from './UploadControls';
import { UploadItemFrame } from './UploadItemFrame';
import { sentMessageOf, uploadPercent, uploadStatusLabel, uploadTone } from './upload-panel-model';

/**
 * One package in the upload queue: its name and status, how far it is (files, bytes, rate and
 * time left while it moves), the banner when it is in trouble, and the controls its status offers.
 */
export function UploadItem(props: { upload: UploadRecord; online: boolean }) {
  const { upload, online } = props;
  const moving = upload.status === 'UPLOADING' || upload.status === 'RETRYING';
  const figures = progressFigures(upload.progress, moving);
  const percent = uploadPercent(upload);
  const sent = sentMessageOf(upload);

  return (
    <UploadItemFrame
      id={`upload-${upload.id}`}
      name={upload.sentPackage}
      status={upload.status}
      statusLabel={uploadStatusLabel[upload.status]}
      statusColor={
        uploadTone(upload) === 'primary' ? 'text.secondary' : `${uploadTone(upload)}.main`
      }
    >
      <LinearProgress
        variant="determinate"
        value={percent}
        color={uploadTone(upload)}
        aria-label={`${upload.sentPackage} progress`}
        sx={{ my: 1, height: 6, borderRadius: 3 }}
      />
      <Typography variant="body2" color="text.secondary" data-testid="upload-figures">
        {[`${percent}%`, figures.files, figures.bytes, figures.rate, figures.timeLeft]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      <UploadBannerAlert upload={upload} />
      {sent && (
        <Alert severity={upload.status === 'COMPLETED' ? 'success' : 'warning'} sx={{ mt: 1 }}>
          {sent}
        </Alert>
      )}
      <Box sx={{ mt: 1 }}>
        <UploadControls upload={upload} online={online} />
      </Box>
    </UploadItemFrame>
  );
}
