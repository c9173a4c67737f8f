import { createContext, useContext } from 'react';

export type ToastSeverity = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  message: string;
  severity: ToastSeverity;
  /** How long it shows, when not the usual 5000 ms. */
  durationMs?: number;
}

export const ToastContext = createContext<(toast: Toast) => void>(() => undefined);

/** Shows a short message that hides itself (after 5000 ms). */
export function useToast(): (toast: Toast) => void {
  return useContext(ToastContext);
}
