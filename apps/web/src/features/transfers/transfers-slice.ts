import { createSlice } from '@reduxjs/toolkit';

/** The transfer side panel and the transfers other tabs of this browser report. */
export interface TransfersState {
  panelExpanded: boolean;
  /** Transfer records of other tabs, by tab id. */
  otherTabs: Record<string, { updatedAt: number }>;
}

const initialState: TransfersState = { panelExpanded: false, otherTabs: {} };

const transfersSlice = createSlice({
  name: 'transfers',
  initialState,
  reducers: {
    /** Opens the panel on the upload queue (after a send into an empty queue, or on request). */
    uploadQueueOpened(state) {
      state.panelExpanded = true;
    },
  },
});

export const { uploadQueueOpened } = transfersSlice.actions;
export const transfersReducer = transfersSlice.reducer;
