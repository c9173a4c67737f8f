import { configureStore } from '@reduxjs/toolkit';
import type { User } from '@filerunner/protocol';
import { initialAuthState, sessionExpiresReceived } from '../features/auth/auth-slice';
import { folderDownloadsOffered } from '../features/transfers/downloads-slice';
import { hasFolderPicker, pageDownloads } from '../features/transfers/page-downloads';
import { lazyUploads } from '../features/transfers/page-uploads';
import { apiSlice } from './api';
import { createApiClient } from './api-client';
import { readStored, storageKeys, writeStored } from './local-storage';
import type { ThunkExtra } from './thunk';
import { areas, rootReducer, type RootState } from './root-reducer';

export type { RootState } from './root-reducer';

function preloadedState(): RootState {
  const initial = areas(undefined, { type: 'app/init' });
  return { ...initial, auth: { ...initialAuthState, user: readStored<User>(storageKeys.user) } };
}

/** The one API client of the app; it feeds every answer's session expiry into the store. */
export const api = createApiClient({
  clientVersion: __APP_VERSION__,
  onSessionExpires: (expiresAt) => store.dispatch(sessionExpiresReceived(expiresAt)),
});

const downloads = pageDownloads(api);

/** What thunks get: the API client, the page's uploads (the transfer engine's runners), downloads. */
const extra: ThunkExtra = {
  api,
  downloads,
  uploads: lazyUploads(async () => {
    const [{ UploadController }, { browserUploadPlatform }] = await Promise.all([
      import('../features/transfers/upload-controller'),
      import('../features/transfers/browser-upload-platform'),
    ]);
    return new UploadController(
      browserUploadPlatform(__APP_VERSION__, {
        onSessionExpires: (expiresAt) => store.dispatch(sessionExpiresReceived(expiresAt)),
      }),
    );
  }),
};

export const store = configureStore({
  reducer: rootReducer,
  // The stored user lets a reload show the right screen at once; it is confirmed by `GET /user/`.
  preloadedState: preloadedState(),
  middleware: (getDefault) =>
    getDefault({ thunk: { extraArgument: extra } }).concat(apiSlice.middleware),
});

downloads.attach(store);
// Folders are offered only where the browser has the picker and the engine is there to fill them.
store.dispatch(folderDownloadsOffered(downloads.foldersAvailable && hasFolderPicker()));

export type AppDispatch = typeof store.dispatch;

/**
 * The session marker other tabs watch: the signed-in user, or nothing once the session is over
 * or lost (a tab whose upload was refused tells the others this way).
 */
const sessionMarkerOf = ({ auth }: RootState) => (auth.sessionLost ? null : auth.user);

let persistedUser = sessionMarkerOf(store.getState());
let persistedContract = store.getState().projects.selectedSlug;
store.subscribe(() => {
  const state = store.getState();
  const { projects } = state;
  const marker = sessionMarkerOf(state);
  if (marker !== persistedUser) {
    persistedUser = marker;
    writeStored(storageKeys.user, marker);
  }
  // Kept across sign-out on purpose: the next sign-in on this browser returns to the same project.
  if (projects.selectedSlug !== persistedContract && projects.selectedSlug !== null) {
    persistedContract = projects.selectedSlug;
    writeStored(storageKeys.selectedContract, projects.selectedSlug);
  }
});
