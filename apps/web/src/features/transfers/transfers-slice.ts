import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The transfer side panel and the transfers other tabs of this browser report. */
export interface TransfersState {
  panelExpanded: boolean;
  /**
   * Uploads the browser going offline paused, so that coming back online resumes those and
   * leaves alone any the person paused themselves.
   */
  pausedOffline: string[];
  /** Transfer records of other tabs, by tab id. */
  otherTabs: Record<string, { updatedAt: number }>;
}

const initialState: TransfersState = { panelExpanded: false, pausedOffline: [], otherTabs: {} };

const transfersSlice = createSlice({
  name: 'transfers',
  initialState,
  reducers: {
    /** Opens the panel on the upload queue (after a send into an empty queue, or on request). */
    uploadQueueOpened(state) {
      state.panelExpanded = true;
    },
    /** Shrinks the panel back to its ring (the overlay was clicked, or the queue cleared). */
    transferPanelCollapsed(state) {
      state.panelExpanded = false;
    },
    /** An upload the connection dropping paused; it resumes when the browser is back online. */
    uploadPausedOffline(state, action: PayloadAction<string>) {
      if (!state.pausedOffline.includes(action.payload)) state.pausedOffline.push(action.payload);
    },
    /** Back online: the uploads paused for the connection have been told to resume. */
    offlinePausesEnded(state) {
      state.pausedOffline = [];
    },
  },
});

export const {
  uploadQueueOpened,
  transferPanelCollapsed,
  uploadPausedOffline,
  offlinePausesEnded,
} = transfersSlice.actions;
export const transfersReducer = transfersSlice.reducer;
