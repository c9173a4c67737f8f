import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { isSettled, type UploadRecord } from '@filerunner/transfer';

/**
 * The upload queue as the transfer engine reports it: one record per package, replaced whenever
 * the engine sends a new one. The engine does the work (see upload-controller.ts); this slice
 * only holds what the panel shows.
 */
export interface UploadsState {
  /** Upload ids (package slugs) in the order they were sent; one runs at a time. */
  queue: string[];
  records: Record<string, UploadRecord>;
}

const initialState: UploadsState = { queue: [], records: {} };

const uploadsSlice = createSlice({
  name: 'uploads',
  initialState,
  reducers: {
    /** The engine's latest record of an upload; a new id joins the end of the queue. */
    uploadChanged(state, action: PayloadAction<UploadRecord>) {
      const record = action.payload;
      if (!state.records[record.id]) state.queue.push(record.id);
      state.records[record.id] = record;
    },
    /** An upload that left the queue (cancelled). */
    uploadRemoved(state, action: PayloadAction<string>) {
      delete state.records[action.payload];
      state.queue = state.queue.filter((id) => id !== action.payload);
    },
    /** Clears the uploads that are over (sent, with or without failed files). */
    finishedUploadsCleared(state) {
      state.queue = state.queue.filter((id) => {
        const done = isSettled(state.records[id]!.status);
        if (done) delete state.records[id];
        return !done;
      });
    },
  },
});

export const { uploadChanged, uploadRemoved, finishedUploadsCleared } = uploadsSlice.actions;
export const uploadsReducer = uploadsSlice.reducer;

/** The uploads in queue order. */
export const selectUploads = createSelector(
  (state: { uploads: UploadsState }) => state.uploads,
  (uploads): UploadRecord[] => uploads.queue.map((id) => uploads.records[id]!),
);

/** Whether any upload is still queued, sending or waiting for the person. */
export function hasActiveUploads(state: { uploads: UploadsState }): boolean {
  return state.uploads.queue.some((id) => !isSettled(state.uploads.records[id]!.status));
}

/**
 * Whether an upload is queued, sending, paused or finalising: what going offline interrupts.
 * Failed and incomplete uploads wait for the person, whatever the connection.
 */
export function hasUploadsUnderWay(state: { uploads: UploadsState }): boolean {
  return state.uploads.queue.some((id) => {
    const { status } = state.uploads.records[id]!;
    return !isSettled(status) && status !== 'FAILED' && status !== 'INCOMPLETE';
  });
}
