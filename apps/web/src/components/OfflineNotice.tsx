import { useLayoutEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import { useOnline } from '../app/use-online';

const HEIGHT_VARIABLE = '--offline-notice-height';

/**
 * The height the offline banner takes at the top of the window (0 while online), as a CSS
 * length. The banner stays above everything, so what sits at the top of the window (the shell,
 * a drawer's header) starts this far down rather than under it.
 */
export const offlineNoticeHeight = `var(${HEIGHT_VARIABLE}, 0px)`;

/**
 * A banner across the top of the page while the browser is offline; `uploading` says that the
 * page's upload is paused meanwhile.
 */
export function OfflineNotice({ uploading = false }: { uploading?: boolean }) {
  const online = useOnline();
  const banner = useRef<HTMLDivElement>(null);

  // The banner's height depends on the window's width (its text wraps on a phone), so it is
  // measured rather than assumed.
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement.style;
    const measure = () => root.setProperty(HEIGHT_VARIABLE, `${element.offsetHeight}px`);
    measure();
    // Every browser the product supports has ResizeObserver; a page with no layout (jsdom in
    // the unit tests) has no wrapping to follow either.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.removeProperty(HEIGHT_VARIABLE);
    };
  }, [online]);

  if (online) return null;
  return (
    <Alert
      ref={banner}
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
