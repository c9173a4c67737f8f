import { actionsOf } from '@filerunner/transfer';
import type { AppDispatch, RootState } from '../../app/store';
import type { ThunkExtra } from '../../app/thunk';
import type { UploadControl, UploadToStart } from './upload-controller';
import { offlinePausesEnded, uploadPausedOffline, uploadQueueOpened } from './transfers-slice';
import { hasActiveUploads, selectUploads } from './uploads-slice';

/**
 * Starts uploading a created package, and opens the upload queue if nothing else was in it.
 */
export function startPackageUpload(upload: UploadToStart) {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): string => {
    const queueWasEmpty = !hasActiveUploads(getState());
    const id = extra.uploads.start(upload, dispatch);
    if (queueWasEmpty) dispatch(uploadQueueOpened());
    return id;
  };
}

/** Passes the person's control on to an upload (the panel's buttons); false when not offered. */
export function controlUpload(id: string, control: UploadControl) {
  return (_dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra): boolean =>
    extra.uploads.control(id, control);
}

/**
 * The browser lost its connection: every upload that is sending pauses (its requests could only
 * fail, and each failure would count against the file's retries), and is remembered as paused
 * for the connection. Called again while offline, it catches an upload that started since.
 */
export function pauseUploadsForOffline() {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): void => {
    for (const upload of selectUploads(getState())) {
      if (actionsOf(upload).pause && extra.uploads.control(upload.id, 'pause')) {
        dispatch(uploadPausedOffline(upload.id));
      }
    }
  };
}

/** Back online: resumes the uploads going offline paused, and only those. */
export function resumeUploadsPausedOffline() {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): void => {
    const { pausedOffline } = getState().transfers;
    if (pausedOffline.length === 0) return;
    dispatch(offlinePausesEnded());
    // An upload cancelled while offline is gone; its runner simply declines.
    for (const id of pausedOffline) extra.uploads.control(id, 'resume');
  };
}
