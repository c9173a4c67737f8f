import { combineReducers, type UnknownAction } from '@reduxjs/toolkit';
import { authReducer } from '../features/auth/auth-slice';
import { projectsReducer } from '../features/projects/projects-slice';
import { downloadsReducer } from '../features/transfers/downloads-slice';
import { transfersReducer } from '../features/transfers/transfers-slice';
import { uploadsReducer } from '../features/transfers/uploads-slice';
import { apiSlice } from './api';
import { resetClientState } from './reset';

/** The areas of the app's state; kept apart from the store so tests build the same shape. */
export const areas = combineReducers({
  [apiSlice.reducerPath]: apiSlice.reducer,
  auth: authReducer,
  projects: projectsReducer,
  uploads: uploadsReducer,
  downloads: downloadsReducer,
  transfers: transfersReducer,
});

export type RootState = ReturnType<typeof areas>;

/** Every area, emptied at once when the client state is reset (sign-out). */
export function rootReducer(state: RootState | undefined, action: UnknownAction): RootState {
  return areas(resetClientState.match(action) ? undefined : state, action);
}
