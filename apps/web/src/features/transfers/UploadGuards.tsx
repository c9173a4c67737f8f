import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useOnline } from '../../app/use-online';
import { pauseUploadsForOffline, resumeUploadsPausedOffline } from './upload-actions';
import { hasActiveUploads, selectUploads } from './uploads-slice';

/**
 * What keeps the page's uploads safe, rendering nothing: going offline pauses them and coming
 * back online resumes the ones it paused; closing or reloading the tab while a package is not
 * yet sent asks first.
 */
export function UploadGuards() {
  const dispatch = useAppDispatch();
  const online = useOnline();
  const uploads = useAppSelector(selectUploads);
  const unsent = useAppSelector(hasActiveUploads);

  // Run on every change of the queue too, so an upload whose turn comes while offline pauses.
  useEffect(() => {
    dispatch(online ? resumeUploadsPausedOffline() : pauseUploadsForOffline());
  }, [online, uploads, dispatch]);

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
