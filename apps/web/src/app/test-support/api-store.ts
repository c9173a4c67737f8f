import { configureStore } from '@reduxjs/toolkit';
import type { ApiRoute } from '@filerunner/protocol';
import { apiSlice } from '../api';
import { readyUploads } from '../../features/transfers/page-uploads';
import { DownloadController } from '../../features/transfers/download-controller';
import type { UploadController } from '../../features/transfers/upload-controller';
import type { ApiClient } from '../api-client';
import type { ThunkExtra } from '../thunk';
import { rootReducer, type RootState } from '../root-reducer';

/** One call the store made through the client: the route of the table and its arguments. */
export interface AskedCall {
  route: ApiRoute;
  args: unknown;
}

/** What the fake client answers to a call (possibly later); a throw or rejection fails it. */
export type Answer = (route: ApiRoute, args: unknown) => unknown;

export interface StoreOptions {
  /** The areas that start other than empty, e.g. a signed-in user. */
  preloadedState?: Partial<RootState>;
  /** The uploads of the page, for tests of sending; none by default. */
  uploads?: UploadController;
  /** The download queue; by default one whose runner hands downloads to nothing. */
  downloads?: DownloadController;
}

/**
 * A store shaped like the app's own (every area, the API cache, the same thunk extra), over a
 * client that answers every call with `answer`, and the calls it was asked, in order.
 */
export function storeAnswering(answer: Answer, options: StoreOptions = {}) {
  const calls: AskedCall[] = [];
  const client: ApiClient = {
    baseUrl: '/api',
    // The real client's answer is typed by the route; this one answers whatever the test gives,
    // and each test gives the answer its route has.
    call: (async (route: ApiRoute, args?: unknown) => {
      calls.push({ route, args });
      return answer(route, args);
    }) as ApiClient['call'],
  };
  const downloads = options.downloads ?? new DownloadController({ browser: noDownloads });
  const extra: ThunkExtra = {
    api: client,
    uploads: readyUploads(options.uploads ?? noUploads),
    downloads,
  };
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { ...rootReducer(undefined, { type: 'test/init' }), ...options.preloadedState },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: extra } }).concat(apiSlice.middleware),
  });
  downloads.attach(store);
  return { store, calls, downloads };
}

/** The uploads of a test store that sends nothing: starting one is a mistake in the test. */
const noUploads = {
  start() {
    throw new Error('this test store has no uploads: pass `uploads` to storeAnswering');
  },
  control: () => false,
} as unknown as UploadController;

/** The download runner of a test store: a download is handed over and nothing more happens. */
const noDownloads = () =>
  Promise.resolve({ verifiedFiles: 0, unverifiedFiles: [], failedFiles: [], fetchedBytes: 0 });
