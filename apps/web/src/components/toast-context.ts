import { createContext, useContext } from 'react';

export type ToastSeverity = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  message: string;
  severity: ToastSeverity;
}

export const ToastContext = createContext<(toast: Toast) => void>(() => undefined);

/** Shows a short message that hides itself (after 5000 ms). */
export function useToast(): (toast: Toast) => void {
  return useContext(ToastContext);
}
