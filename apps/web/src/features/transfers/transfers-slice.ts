import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RepickProblem } from '@filerunner/transfer/browser';
import { uploadsOfOtherTabs, type TabTransferRecord, type TabUpload } from './tab-transfers';
import type { InterruptedUpload } from './upload-controller';
import type { UploadsState } from './uploads-slice';

/** An interrupted upload as the panel shows it, with how its last Resume went. */
export interface InterruptedUploadView extends InterruptedUpload {
  /** Resume was pressed and the files are being read again. */
  resuming: boolean;
  /** Why the last Resume did not start, in the person's words; null before one. */
  problem: string | null;
  /** The files that stopped the last Resume: gone, or changed since the upload started. */
  mismatched: RepickProblem[];
}

/** Why a Resume did not start, as the panel says it. */
export const resumeProblemText = {
  permission: 'Permission to read the files was not given. Press Resume to be asked again.',
  unreadable: 'The files could not be read where they were. Please pick them again.',
  mismatch: 'Some files are not the ones this upload started with. Please pick them again.',
} as const;

/** The transfer side panel and the transfers other tabs of this browser report. */
export interface TransfersState {
  panelExpanded: boolean;
  /**
   * Uploads the browser going offline paused, so that coming back online resumes those and
   * leaves alone any the person paused themselves.
   */
  pausedOffline: string[];
  /** The fresh transfer records of this browser's other tabs (see tab-transfers.ts). */
  otherTabs: TabTransferRecord[];
  /** Uploads an earlier page of this person did not finish, oldest first, to resume or discard. */
  interrupted: InterruptedUploadView[];
}

const initialState: TransfersState = {
  panelExpanded: false,
  pausedOffline: [],
  otherTabs: [],
  interrupted: [],
};

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
    /** The other tabs' records as read now; they replace the ones read before. */
    otherTabRecordsRead(state, action: PayloadAction<TabTransferRecord[]>) {
      state.otherTabs = action.payload;
    },
    /** The interrupted uploads found after a start or a sign-in; they replace any shown. */
    interruptedUploadsFound(state, action: PayloadAction<InterruptedUpload[]>) {
      state.interrupted = action.payload.map((upload) => ({
        ...upload,
        resuming: false,
        problem: null,
        mismatched: [],
      }));
    },
    interruptedResumeStarted(state, action: PayloadAction<string>) {
      const upload = state.interrupted.find((u) => u.id === action.payload);
      if (upload) Object.assign(upload, { resuming: true, problem: null, mismatched: [] });
    },
    /**
     * A Resume that could not start. Files that cannot be read through their handles are
     * picked again, so the panel offers the folder or files pick from then on.
     */
    interruptedResumeRefused(
      state,
      action: PayloadAction<{
        id: string;
        reason: keyof typeof resumeProblemText;
        mismatched?: RepickProblem[];
      }>,
    ) {
      const { id, reason, mismatched = [] } = action.payload;
      const upload = state.interrupted.find((u) => u.id === id);
      if (!upload) return;
      Object.assign(upload, { resuming: false, problem: resumeProblemText[reason], mismatched });
      if (reason !== 'permission') upload.handles = false;
    },
    /** Resumed (it is in the upload queue now) or discarded. */
    interruptedUploadLeft(state, action: PayloadAction<string>) {
      state.interrupted = state.interrupted.filter((u) => u.id !== action.payload);
    },
  },
});

export const {
  uploadQueueOpened,
  transferPanelCollapsed,
  uploadPausedOffline,
  offlinePausesEnded,
  otherTabRecordsRead,
  interruptedUploadsFound,
  interruptedResumeStarted,
  interruptedResumeRefused,
  interruptedUploadLeft,
} = transfersSlice.actions;
export const transfersReducer = transfersSlice.reducer;

type WithTransfers = {
  transfers: TransfersState;
  uploads: UploadsState;
  auth: { user: { id: number } | null };
};

/** The signed-in person's uploads that other tabs of this browser run (this page's excepted). */
export const selectOtherTabUploads = createSelector(
  (state: WithTransfers) => state.transfers.otherTabs,
  (state: WithTransfers) => state.auth.user?.id ?? null,
  (state: WithTransfers) => state.uploads.queue,
  (records, owner, here): TabUpload[] => uploadsOfOtherTabs(records, owner, new Set(here)),
);

/**
 * The interrupted uploads to offer on this page: an upload another tab runs is not interrupted,
 * and only its own tab may control it (a Discard here would pull its ledger from under it).
 */
export const selectInterruptedUploads = createSelector(
  (state: WithTransfers) => state.transfers.interrupted,
  selectOtherTabUploads,
  (interrupted, elsewhere): InterruptedUploadView[] => {
    if (elsewhere.length === 0) return interrupted;
    const running = new Set(elsewhere.map((upload) => upload.id));
    return interrupted.filter((upload) => !running.has(upload.id));
  },
);
