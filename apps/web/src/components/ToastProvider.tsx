import { useCallback, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { limits } from '@filerunner/protocol';
import { ToastContext, type Toast } from './toast-context';

/** Holds the current toast; it sits above the router so a toast survives a navigation. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<(Toast & { key: number }) | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((next: Toast) => {
    setToast({ ...next, key: Date.now() });
    setOpen(true);
  }, []);
  const close = () => setOpen(false);

  return (
    <ToastContext.Provider value={show}>
      {children}
      {toast && (
        <Snackbar
          key={toast.key}
          open={open}
          autoHideDuration={toast.durationMs ?? limits.toastDelayMs}
          onClose={(_event, reason) => {
            if (reason !== 'clickaway') close();
          }}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        >
          <Alert severity={toast.severity} variant="filled" onClose={close} role="status">
            {toast.message}
          </Alert>
        </Snackbar>
      )}
    </ToastContext.Provider>
  );
}
