import Alert from '@mui/material/Alert';
import { useOnline } from '../app/use-online';

/**
 * A banner across the top of the page while the browser is offline; `uploading` says that the
 * page's upload is paused meanwhile.
 */
export function OfflineNotice({ uploading = false }: { uploading?: boolean }) {
  const online = useOnline();
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
