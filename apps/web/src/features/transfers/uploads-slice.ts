import { createSlice } from '@reduxjs/toolkit';

/** The upload queue; filled by the transfer engine once package sending exists. */
export interface UploadsState {
  /** Upload ids in queue order; one runs at a time. */
  queue: string[];
  currentId: string | null;
}

const initialState: UploadsState = { queue: [], currentId: null };

const uploadsSlice = createSlice({ name: 'uploads', initialState, reducers: {} });

export const uploadsReducer = uploadsSlice.reducer;
