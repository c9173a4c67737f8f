import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { UploadRecord } from '@filerunner/transfer';
import { FailedFilesDialog } from './FailedFilesDialog';
import { bannerOf } from './upload-panel-model';

/**
 * The banner over an upload in trouble: files failed (with View files), files being retried,
 * or finalising failed. The engine's own reason is added when it says more than the banner.
 */
export function UploadBannerAlert(props: { upload: UploadRecord }) {
  const { upload } = props;
  const [viewing, setViewing] = useState(false);
  const banner = bannerOf(upload);
  if (!banner) return null;
  const reason = upload.error && upload.error !== banner.text ? upload.error : null;

  return (
    <>
      <Alert
        severity={banner.severity}
        sx={{ mt: 1 }}
        action={
          banner.viewFiles ? (
            <Button color="inherit" size="small" onClick={() => setViewing(true)}>
              View files
            </Button>
          ) : undefined
        }
      >
        {banner.text}
        {reason && (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {reason}
          </Typography>
        )}
      </Alert>
      {banner.viewFiles && (
        <FailedFilesDialog
          open={viewing}
          packageName={upload.sentPackage}
          files={upload.failedFiles}
          onClose={() => setViewing(false)}
        />
      )}
    </>
  );
}
