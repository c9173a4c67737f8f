import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  DownloadErrorKind,
  DownloadMethod,
  DownloadOutcome,
  DownloadProgress,
  FailedDownloadFile,
} from './download-runner';
import { percentOf } from './transfer-format';

export type DownloadStatus = 'QUEUED' | 'DOWNLOADING' | 'COMPLETED' | 'FAILED' | 'PARTIALLY_FAILED';

/**
 * Why a download failed: a kind the engine classified (each has its words and actions in the
 * panel), `refused` when the server would not grant it (expired, locked, access removed),
 * whose message is the server's reason, or `interrupted` (the message says how to go on).
 */
export interface DownloadProblem {
  /** `interrupted`: an earlier page closed while it ran; a later page offers it again. */
  kind: DownloadErrorKind | 'refused' | 'interrupted';
  message: string;
}

/** One download in the queue: a whole package, or one file of it. */
export interface DownloadRecord {
  identifier: string;
  /** The package's name. */
  receivedPackage: string;
  packageSlug: string;
  /**
   * What the grant gave, once asked (at the moment the download starts): the name it saves
   * under and its size. The grant's URL is the credential and stays out of the store.
   */
  download: { filename: string; size: number } | null;
  /** The picked folder's name, for the folder methods. */
  rootFolder: string | null;
  /** The file's user path when one file is downloaded; null for the whole package. */
  packageFile: string | null;
  /** The person's choice for a package: unpack its files, or keep the `.tar`. */
  unpackOption: 'yes' | 'no';
  /** Whether this run unpacks the tar into the folder. */
  detarFile: boolean;
  method: DownloadMethod;
  /** Some names in the package cannot exist on every system: it downloads as `.tar` by default. */
  invalidFilenames: boolean;
  percentComplete: number;
  status: DownloadStatus;
  retryCount: number;
  progress: DownloadProgress | null;
  failedFiles: FailedDownloadFile[];
  error: DownloadProblem | null;
  /** The server signed a delivery receipt of this download for the package's sender. */
  receipted: boolean;
}

export interface DownloadsState {
  /** Download identifiers in queue order; one runs at a time. */
  queue: string[];
  records: Record<string, DownloadRecord>;
  currentId: string | null;
  /** Whether this browser can download into a folder (a folder picker and the engine). */
  folderDownloads: boolean;
}

const initialState: DownloadsState = {
  queue: [],
  records: {},
  currentId: null,
  folderDownloads: false,
};

/** What a new download is asked with; the rest starts empty. */
export type NewDownload = Pick<
  DownloadRecord,
  | 'identifier'
  | 'receivedPackage'
  | 'packageSlug'
  | 'packageFile'
  | 'method'
  | 'rootFolder'
  | 'unpackOption'
  | 'invalidFilenames'
>;

/** A change of how a download lands, made when it is queued again or given a folder. */
export interface DownloadPlacement {
  method: DownloadMethod;
  rootFolder: string | null;
}

const downloadsSlice = createSlice({
  name: 'downloads',
  initialState,
  reducers: {
    folderDownloadsOffered(state, action: PayloadAction<boolean>) {
      state.folderDownloads = action.payload;
    },
    /** A new download joins the end of the queue. */
    downloadQueued(state, action: PayloadAction<NewDownload>) {
      const asked = action.payload;
      state.queue.push(asked.identifier);
      state.records[asked.identifier] = {
        ...asked,
        download: null,
        detarFile: asked.method === 'unpack',
        percentComplete: 0,
        status: 'QUEUED',
        retryCount: 0,
        progress: null,
        failedFiles: [],
        error: null,
        receipted: false,
      };
    },
    downloadStarted(state, action: PayloadAction<string>) {
      const record = state.records[action.payload];
      if (!record) return;
      state.currentId = record.identifier;
      Object.assign(record, { status: 'DOWNLOADING', failedFiles: [], error: null });
    },
    downloadGranted(
      state,
      action: PayloadAction<{ id: string; download: { filename: string; size: number } }>,
    ) {
      const record = state.records[action.payload.id];
      if (record) record.download = action.payload.download;
    },
    /** The engine's progress; the percent never moves backward. */
    downloadProgressed(state, action: PayloadAction<{ id: string; progress: DownloadProgress }>) {
      const record = state.records[action.payload.id];
      if (!record || record.status !== 'DOWNLOADING') return;
      const { progress } = action.payload;
      record.progress = progress;
      record.percentComplete = Math.max(
        record.percentComplete,
        percentOf(progress.receivedBytes, progress.totalBytes),
      );
    },
    /**
     * The runner finished: every file arrived (Completed), none did (Failed, with the first
     * file's reason), or some did not (Partially Failed, with the list).
     */
    downloadFinished(
      state,
      action: PayloadAction<{ id: string; outcome: DownloadOutcome; totalFiles: number }>,
    ) {
      const { id, outcome, totalFiles } = action.payload;
      const record = state.records[id];
      if (!record) return;
      if (state.currentId === id) state.currentId = null;
      const failed = [...outcome.failedFiles];
      record.failedFiles = failed;
      if (failed.length === 0) {
        Object.assign(record, { status: 'COMPLETED', percentComplete: 100 });
      } else if (failed.length >= totalFiles) {
        const [first] = failed;
        record.status = 'FAILED';
        record.error = { kind: first!.kind, message: first!.message };
      } else {
        record.status = 'PARTIALLY_FAILED';
      }
    },
    /** A fatal failure: the download stopped. */
    downloadFailed(state, action: PayloadAction<{ id: string; error: DownloadProblem }>) {
      const record = state.records[action.payload.id];
      if (!record) return;
      if (state.currentId === record.identifier) state.currentId = null;
      Object.assign(record, { status: 'FAILED', error: action.payload.error });
    },
    /**
     * Retry (or a Failed download's other ways to land): back to Queued ahead of every other
     * queued download, one more retry counted.
     */
    downloadRetried(state, action: PayloadAction<{ id: string; placement?: DownloadPlacement }>) {
      const { id, placement } = action.payload;
      const record = state.records[id];
      if (!record) return;
      if (placement) place(record, placement);
      Object.assign(record, {
        status: 'QUEUED',
        retryCount: record.retryCount + 1,
        error: null,
        failedFiles: [],
        progress: null,
        percentComplete: 0,
        receipted: false,
      });
      state.queue = state.queue.filter((queued) => queued !== id);
      const firstQueued = state.queue.findIndex(
        (queued) => state.records[queued]!.status === 'QUEUED',
      );
      state.queue.splice(firstQueued === -1 ? state.queue.length : firstQueued, 0, id);
    },
    /** The server signed a receipt of the finished download (its engine asked for one). */
    downloadReceipted(state, action: PayloadAction<string>) {
      const record = state.records[action.payload];
      if (record) record.receipted = true;
    },
    /** A queued download was given a folder to land in. */
    downloadPlaced(state, action: PayloadAction<{ id: string; placement: DownloadPlacement }>) {
      const record = state.records[action.payload.id];
      if (record?.status === 'QUEUED') place(record, action.payload.placement);
    },
    /** Cancelled: it leaves the queue. */
    downloadRemoved(state, action: PayloadAction<string>) {
      delete state.records[action.payload];
      state.queue = state.queue.filter((id) => id !== action.payload);
      if (state.currentId === action.payload) state.currentId = null;
    },
  },
});

function place(record: DownloadRecord, placement: DownloadPlacement) {
  record.method = placement.method;
  record.rootFolder = placement.rootFolder;
  record.detarFile = placement.method === 'unpack';
}

export const {
  folderDownloadsOffered,
  downloadQueued,
  downloadStarted,
  downloadGranted,
  downloadProgressed,
  downloadFinished,
  downloadFailed,
  downloadRetried,
  downloadPlaced,
  downloadReceipted,
  downloadRemoved,
} = downloadsSlice.actions;
export const downloadsReducer = downloadsSlice.reducer;

/** The downloads in queue order. */
export const selectDownloads = createSelector(
  (state: { downloads: DownloadsState }) => state.downloads,
  (downloads): DownloadRecord[] => downloads.queue.map((id) => downloads.records[id]!),
);

/** The download to run next: the first queued one in queue order. */
export function nextQueuedDownload(state: { downloads: DownloadsState }): DownloadRecord | null {
  const { queue, records } = state.downloads;
  const id = queue.find((queued) => records[queued]!.status === 'QUEUED');
  return id ? records[id]! : null;
}

/** Whether a download is over and offers nothing more (Completed, Partially Failed). */
export function isSettledDownload(status: DownloadStatus): boolean {
  return status === 'COMPLETED' || status === 'PARTIALLY_FAILED';
}
