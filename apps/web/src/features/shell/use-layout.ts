import { useSyncExternalStore } from 'react';
import useMediaQuery from '@mui/material/useMediaQuery';
import { limits } from '@filerunner/protocol';

/** Below 1280 px wide the shell shows icons only. */
export function useCollapsedLayout(): boolean {
  return useMediaQuery(`(max-width:${limits.collapseWidthPx - 0.02}px)`);
}

function subscribeResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

export function useWindowHeight(): number {
  return useSyncExternalStore(subscribeResize, () => window.innerHeight);
}
