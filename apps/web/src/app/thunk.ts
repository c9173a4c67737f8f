import { createAsyncThunk } from '@reduxjs/toolkit';
import type { ApiClient } from './api-client';
import type { AppDispatch, RootState } from './store';

/** What every thunk gets besides state and dispatch. */
export interface ThunkExtra {
  api: ApiClient;
}

/** A failed call as thunks reject with it: plain data, so it can travel through the store. */
export interface Rejection {
  status: number;
  message: string;
}

export const createAppAsyncThunk = createAsyncThunk.withTypes<{
  state: RootState;
  dispatch: AppDispatch;
  extra: ThunkExtra;
  rejectValue: Rejection;
}>();
