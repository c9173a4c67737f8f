import { configureStore } from '@reduxjs/toolkit';
import type { DownloadController } from '../features/transfers/download-controller';
import { downloadsReducer, folderDownloadsOffered } from '../features/transfers/downloads-slice';
import { hasFolderPicker, pageDownloads } from '../features/transfers/page-downloads';
import { apiSlice } from './api';
import type { ApiClient } from './api-client';
import type { ThunkExtra } from './thunk';

/**
 * A store holding only the API cache and the download queue, for a page built apart from the
 * app (the external package page): its screens call the server through the same endpoints
 * without loading the app's other areas. Such a page has no uploads.
 */
export function createCallStore(
  api: ApiClient,
  downloads: DownloadController = pageDownloads(api),
) {
  const extra: Pick<ThunkExtra, 'api' | 'downloads'> = { api, downloads };
  const store = configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer, downloads: downloadsReducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: extra } }).concat(apiSlice.middleware),
  });
  downloads.attach(store);
  store.dispatch(folderDownloadsOffered(downloads.foldersAvailable && hasFolderPicker()));
  return store;
}
