import { configureStore } from '@reduxjs/toolkit';
import { apiSlice } from './api';
import type { ApiClient } from './api-client';
import type { ThunkExtra } from './thunk';

/**
 * A store holding only the API cache, for a page built apart from the app (the external package
 * page): its screens call the server through the same endpoints without loading the app's other
 * areas. Such a page has no uploads.
 */
export function createCallStore(api: ApiClient) {
  const extra: Pick<ThunkExtra, 'api'> = { api };
  return configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: extra } }).concat(apiSlice.middleware),
  });
}
