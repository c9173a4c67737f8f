import type { AppDispatch, RootState } from '../../app/store';
import type { ThunkExtra } from '../../app/thunk';
import type { UploadControl, UploadToStart } from './upload-controller';
import { uploadQueueOpened } from './transfers-slice';
import { hasActiveUploads } from './uploads-slice';

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
