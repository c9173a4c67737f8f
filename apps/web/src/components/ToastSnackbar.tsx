import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { limits } from '@filerunner/protocol';
import type { Toast } from './toast-context';

/** The toast on screen: bottom centre, hiding itself after its time unless the pointer is on it. */
export function ToastSnackbar({
  toast,
  open,
  onClose,
}: {
  toast: Toast;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={toast.durationMs ?? limits.toastDelayMs}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={toast.severity} variant="filled" onClose={onClose} role="status">
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
