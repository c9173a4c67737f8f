import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { ToastContext, type Toast } from './toast-context';

// The snackbar's code comes with the first toast: most pages open without one.
const ToastSnackbar = lazy(async () => ({
  default: (await import('./ToastSnackbar')).ToastSnackbar,
}));

/** Holds the current toast; it sits above the router so a toast survives a navigation. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<(Toast & { key: number }) | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((next: Toast) => {
    setToast({ ...next, key: Date.now() });
    setOpen(true);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      {toast && (
        <Suspense fallback={null}>
          <ToastSnackbar key={toast.key} toast={toast} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}
