import { useSyncExternalStore } from 'react';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { limits } from '@filerunner/protocol';

/** Below 1280 px wide the shell shows icons only. */
export function useCollapsedLayout(): boolean {
  return useMediaQuery(`(max-width:${limits.collapseWidthPx - 0.02}px)`);
}

/**
 * Below the theme's `md` breakpoint (900 px: a phone, a narrow window) there is no room for a
 * sidebar beside the screen: the sidebar becomes a menu opened from the top bar, and the
 * list-and-detail screens show one pane at a time.
 */
export function useNarrowLayout(): boolean {
  const theme = useTheme();
  // Read at once (this app never renders on a server), so a phone never paints the wide shell.
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}

function subscribeResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

export function useWindowHeight(): number {
  return useSyncExternalStore(subscribeResize, () => window.innerHeight);
}
