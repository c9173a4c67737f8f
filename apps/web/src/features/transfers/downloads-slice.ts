import { createSlice } from '@reduxjs/toolkit';

/** The download queue; filled by the transfer engine once downloads exist. */
export interface DownloadsState {
  /** Download identifiers in queue order; one runs at a time. */
  queue: string[];
  currentId: string | null;
}

const initialState: DownloadsState = { queue: [], currentId: null };

const downloadsSlice = createSlice({ name: 'downloads', initialState, reducers: {} });

export const downloadsReducer = downloadsSlice.reducer;
