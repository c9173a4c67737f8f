import { useEffect } from 'react';
import type { User } from '@filerunner/protocol';
import { useAppDispatch } from '../../app/hooks';
import { storageKeys } from '../../app/local-storage';
import type { AppDispatch, RootState } from '../../app/store';
import { forgetSession } from '../auth/auth-api';
import { sessionLost, sessionRegained } from '../auth/auth-slice';
import { hasUploadsUnderWay } from '../transfers/uploads-slice';

/**
 * The session marker (the signed-in user in localStorage, see store.ts) as another tab's
 * change leaves it: the user stored now, null once it is gone, or undefined when the change is
 * about something else.
 */
export function markerOf(
  event: Pick<StorageEvent, 'key' | 'newValue' | 'storageArea'>,
  local: Storage | null = window.localStorage,
): User | null | undefined {
  if (event.storageArea !== local) return undefined;
  // A key of null is the whole storage cleared.
  if (event.key === null) return null;
  if (event.key !== storageKeys.user) return undefined;
  if (event.newValue === null) return null;
  try {
    return JSON.parse(event.newValue) as User;
  } catch {
    return null;
  }
}

/**
 * Another tab changed the session marker. Gone while this page has uploads under way: the page
 * stays, says so and waits with its uploads paused (a reload or the login page would stop
 * them). Gone with nothing under way, or someone else signed in: this page follows and forgets
 * its state. Back for the same person: the page, and its uploads, go on.
 */
export function sessionMarkerChanged(stored: User | null) {
  return (dispatch: AppDispatch, getState: () => RootState): void => {
    const { user, sessionLost: lost } = getState().auth;
    if (!user) return;
    if (stored?.id === user.id) {
      if (lost) dispatch(sessionRegained());
    } else if (stored === null && hasUploadsUnderWay(getState())) {
      dispatch(sessionLost());
    } else {
      dispatch(forgetSession());
    }
  };
}

/** Follows the session marker as other tabs of this browser change it. */
export function useSessionMarker(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const changed = (event: StorageEvent) => {
      const stored = markerOf(event);
      if (stored !== undefined) dispatch(sessionMarkerChanged(stored));
    };
    window.addEventListener('storage', changed);
    return () => window.removeEventListener('storage', changed);
  }, [dispatch]);
}
