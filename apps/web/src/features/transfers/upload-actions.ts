import { actionsOf } from '@filerunner/transfer';
import type { AppDispatch, RootState } from '../../app/store';
import type { ThunkExtra } from '../../app/thunk';
import { keepsUploadsOf } from './kept-uploads';
import { withUploads } from './page-uploads';
import type { ResumeOutcome, UploadControl, UploadToStart } from './upload-controller';
import {
  interruptedResumeRefused,
  interruptedResumeStarted,
  interruptedUploadLeft,
  interruptedUploadsFound,
  offlinePausesEnded,
  selectOtherTabUploads,
  uploadPausedOffline,
  uploadQueueOpened,
} from './transfers-slice';
import { hasActiveUploads, selectUploads } from './uploads-slice';

/**
 * Starts uploading a created package (loading the transfer engine first if this page has not),
 * and opens the upload queue if nothing else was in it.
 */
export function startPackageUpload(upload: UploadToStart) {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra) =>
    withUploads(extra.uploads, (uploads): string => {
      const queueWasEmpty = !hasActiveUploads(getState());
      const id = uploads.start(upload, dispatch, getState().auth.user?.id ?? null);
      if (queueWasEmpty) dispatch(uploadQueueOpened());
      return id;
    });
}

/** Passes the person's control on to an upload (the panel's buttons); false when not offered. */
export function controlUpload(id: string, control: UploadControl) {
  return (_dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra): boolean =>
    extra.uploads.loaded()?.control(id, control) ?? false;
}

/**
 * The browser lost its connection: every upload that is sending pauses (its requests could only
 * fail, and each failure would count against the file's retries), and is remembered as paused
 * for the connection. Called again while offline, it catches an upload that started since.
 */
export function pauseUploadsForOffline() {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): void => {
    const uploads = extra.uploads.loaded();
    if (!uploads) return;
    for (const upload of selectUploads(getState())) {
      if (actionsOf(upload).pause && uploads.control(upload.id, 'pause')) {
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
    for (const id of pausedOffline) extra.uploads.loaded()?.control(id, 'resume');
  };
}

/** Lists the signed-in person's uploads that an earlier page left unfinished, in the panel. */
export function findInterruptedUploads() {
  return async (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra) => {
    const owner = getState().auth.user?.id;
    if (owner === undefined) return;
    // With nothing kept, the panel is told so without loading the engine for it.
    if (!extra.uploads.loaded() && !(await keepsUploadsOf(owner))) {
      if (getState().auth.user?.id === owner) dispatch(interruptedUploadsFound([]));
      return;
    }
    const uploads = await extra.uploads.load();
    const found = await uploads.interrupted(owner).catch((error: unknown) => {
      // Without IndexedDB (a private window may refuse it) nothing can be resumed anyway.
      console.warn('could not read the interrupted uploads', error);
      return [];
    });
    // Signed out or someone else signed in while the store was read: not theirs to see.
    if (getState().auth.user?.id === owner) dispatch(interruptedUploadsFound(found));
  };
}

/**
 * Resume of an interrupted upload whose files have handles: asks for read permission again
 * (dispatch it from the click itself) and sends what is missing.
 */
export function resumeInterruptedUpload(id: string) {
  return (dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra) => {
    // Loaded already (it listed the upload), so the prompt is asked within the click.
    const resuming = withUploads(extra.uploads, (uploads) =>
      uploads.resumeWithHandles(id, dispatch),
    );
    dispatch(interruptedResumeStarted(id));
    return Promise.resolve(resuming).then((outcome) => settleResume(dispatch, id, outcome));
  };
}

/** Resume of an interrupted upload with the same folder or files picked again. */
export function resumeInterruptedFromPick(id: string, files: readonly File[]) {
  return async (dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra) => {
    dispatch(interruptedResumeStarted(id));
    const [uploads, { sourcesFromFileList }] = await Promise.all([
      extra.uploads.load(),
      import('@filerunner/transfer/browser'),
    ]);
    settleResume(dispatch, id, uploads.resumeFromPick(id, sourcesFromFileList(files), dispatch));
  };
}

/**
 * Gives an interrupted upload up: it leaves the panel and is never offered again. One that
 * another tab runs is that tab's: it is left alone.
 */
export function discardInterruptedUpload(id: string) {
  return async (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra) => {
    if (selectOtherTabUploads(getState()).some((upload) => upload.id === id)) return;
    dispatch(interruptedUploadLeft(id));
    await (await extra.uploads.load()).discard(id);
  };
}

function settleResume(dispatch: AppDispatch, id: string, outcome: ResumeOutcome) {
  if (outcome.started || outcome.reason === 'gone') dispatch(interruptedUploadLeft(id));
  else if (outcome.reason === 'mismatch') {
    dispatch(interruptedResumeRefused({ id, reason: 'mismatch', mismatched: outcome.problems }));
  } else dispatch(interruptedResumeRefused({ id, reason: outcome.reason }));
}

/** The session ended: uploads pause and leave the page's store until their owner signs in. */
export function pauseUploadsForSignOut() {
  return (dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra): void => {
    extra.uploads.loaded()?.pauseForSignOut(dispatch);
  };
}

/** The session ended in another tab while this page stays: its uploads pause, in view. */
export function pauseUploadsForSession() {
  return (_dispatch: AppDispatch, _getState: () => RootState, extra: ThunkExtra): void => {
    extra.uploads.loaded()?.pauseForSession();
  };
}

/** The person signed in again elsewhere: the uploads the session paused go on. */
export function resumeUploadsPausedForSession() {
  return (_dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): void => {
    const owner = getState().auth.user?.id;
    if (owner !== undefined) extra.uploads.loaded()?.resumeForSession(owner);
  };
}

/** Signed in: the uploads the sign-out paused go on, when they are this person's. */
export function resumeUploadsAfterSignIn() {
  return (dispatch: AppDispatch, getState: () => RootState, extra: ThunkExtra): void => {
    const owner = getState().auth.user?.id;
    // Nothing was paused on this page if the engine never loaded.
    if (owner !== undefined) extra.uploads.loaded()?.resumeAfterSignIn(owner, dispatch);
  };
}
