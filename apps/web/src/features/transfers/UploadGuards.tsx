import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useOnline } from '../../app/use-online';
import {
  findInterruptedUploads,
  pauseUploadsForOffline,
  pauseUploadsForSession,
  pauseUploadsForSignOut,
  resumeUploadsAfterSignIn,
  resumeUploadsPausedForSession,
  resumeUploadsPausedOffline,
} from './upload-actions';
import { hasActiveUploads, selectUploads } from './uploads-slice';
import { useKeptDownloads } from './use-kept-downloads';
import { useTabTransfers } from './use-tab-transfers';

/**
 * What keeps the page's uploads safe, rendering nothing: going offline pauses them and coming
 * back online resumes the ones it paused; the session ending (here, or in another tab while
 * this page stays) pauses them and the same person signing in again resumes them; signing in lists the uploads an earlier page left unfinished;
 * closing or reloading the tab while a package is not yet sent asks first; the other tabs of the
 * browser are told of this page's uploads, and this page of theirs.
 */
export function UploadGuards() {
  const dispatch = useAppDispatch();
  const online = useOnline();
  const uploads = useAppSelector(selectUploads);
  const unsent = useAppSelector(hasActiveUploads);
  const userId = useAppSelector((s) => s.auth.user?.id ?? null);
  const sessionLost = useAppSelector((s) => s.auth.sessionLost);
  useTabTransfers();
  // Downloads too: one cut off by an earlier page of this person's is offered again.
  useKeptDownloads(userId === null ? null : `user:${userId}`);

  // Run on every change of the queue too, so an upload whose turn comes while offline pauses.
  useEffect(() => {
    dispatch(online ? resumeUploadsPausedOffline() : pauseUploadsForOffline());
  }, [online, uploads, dispatch]);

  useEffect(() => {
    if (userId === null) {
      dispatch(pauseUploadsForSignOut());
      return;
    }
    dispatch(resumeUploadsAfterSignIn());
    dispatch(findInterruptedUploads());
  }, [userId, dispatch]);

  useEffect(() => {
    dispatch(sessionLost ? pauseUploadsForSession() : resumeUploadsPausedForSession());
  }, [sessionLost, dispatch]);

  useEffect(() => {
    if (!unsent) return;
    const ask = (event: BeforeUnloadEvent) => {
      // Browsers show their own question; preventing the default is what asks for it.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsent]);

  return null;
}
