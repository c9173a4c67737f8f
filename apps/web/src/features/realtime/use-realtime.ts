import { useEffect } from 'react';
import { REALTIME_PATH, type RealtimeMessage } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { AppDispatch } from '../../app/store';
import { RealtimeConnection } from './realtime-connection';

/** The realtime socket's address on the page's own origin (wss behind https). */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;
}

/**
 * What a server message changes in the app: a received package refetches the received lists
 * (the Inbox and the unseen badge read the same cache); a download of a sent package, the sent
 * ones (its recipients' status and download history); after missed events, both.
 */
export function applyRealtimeMessage(dispatch: AppDispatch, message: RealtimeMessage): void {
  if (message.type === 'package_received') {
    dispatch(apiSlice.util.invalidateTags(['Received']));
  } else if (message.type === 'package_downloaded') {
    // The Sent screens (recipients' download status, the download history) read these.
    dispatch(apiSlice.util.invalidateTags(['Sent']));
  } else if (message.type === 'resync') {
    dispatch(apiSlice.util.invalidateTags(['Received', 'Sent']));
  }
}

/**
 * Keeps the realtime socket open while someone is signed in: opened when the user is known,
 * closed at logout and at session expiry (both clear the user), and on leaving the shell.
 */
export function useRealtime(): void {
  const dispatch = useAppDispatch();
  const userId = useAppSelector((s) => s.auth.user?.id ?? null);

  useEffect(() => {
    if (userId === null) return;
    const connection = new RealtimeConnection({
      url: realtimeUrl(window.location),
      onMessage: (message) => applyRealtimeMessage(dispatch, message),
    });
    connection.start();
    return () => connection.close();
  }, [dispatch, userId]);
}

/** Mounted in the signed-in shell; renders nothing. */
export function RealtimeUpdates(): null {
  useRealtime();
  return null;
}
