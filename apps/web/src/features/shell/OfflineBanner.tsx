import Alert from '@mui/material/Alert';
import { useAppSelector } from '../../app/hooks';
import { useOnline } from '../../app/use-online';
import { hasUploadsUnderWay } from '../transfers/uploads-slice';

/** A banner across the top of every page while the browser is offline. */
export function OfflineBanner() {
  const online = useOnline();
  // Uploads pause while offline (see UploadGuards), and the person is told so.
  const uploading = useAppSelector(hasUploadsUnderWay);
  if (online) return null;
  return (
    <Alert
      severity="error"
      variant="filled"
      square
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (t) => t.zIndex.snackbar + 1 }}
    >
      {uploading
        ? 'You are currently offline. Your upload has been paused.'
        : 'You are currently offline'}
    </Alert>
  );
}
