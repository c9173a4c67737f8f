/*
 * The download engine as the queue sees it: only its types cross here, so nothing of the engine
 * is bundled with the queue (the folder runner loads it with the first download).
 */
import type {
  DownloadDescriptor,
  DownloadErrorKind,
  DownloadOptions,
  DownloadOutcome,
  DownloadProgress,
  ReceiptCalls,
} from '@filerunner/transfer';

export type {
  DownloadDescriptor,
  DownloadErrorKind,
  DownloadOptions,
  DownloadOutcome,
  DownloadProgress,
  FailedDownloadFile,
  ReceiptCalls,
} from '@filerunner/transfer';

/**
 * How a download lands: unpacked into a folder, the `.tar` saved into a folder, or handed to the
 * browser's own download (a Firefox or Safari without a folder picker, or the person's choice).
 */
export type DownloadMethod = 'unpack' | 'tar' | 'browser';

/** A folder the person picked for downloads; `handle` is the browser's directory handle. */
export interface DownloadFolder {
  readonly name: string;
  readonly handle: unknown;
}

/** One download as the queue hands it to a runner, once its grant is in hand. */
export interface DownloadJob {
  readonly descriptor: DownloadDescriptor;
  readonly method: DownloadMethod;
  /** The folder for `unpack` and `tar`; null for the browser's own download. */
  readonly folder: DownloadFolder | null;
  readonly options: Partial<DownloadOptions>;
  readonly signal: AbortSignal;
  readonly onProgress: (progress: DownloadProgress) => void;
  /**
   * For a recipient's download of a whole package: how to ask the server for a signed receipt
   * once the files are written and checked, and what to tell when it was given. The runner asks
   * after it answered its outcome, so the download is Completed without waiting for it. Only a
   * runner that can read back what it wrote can answer the server's challenge: the browser's own
   * download hands the bytes to the browser and earns no receipt.
   */
  readonly receipt?: DownloadReceiptRequest;
  /**
   * Files already in the folder that the person chose to replace: the ones an earlier run of
   * this download stopped for (`filesInTheWay`). Others it did not make still stop it.
   */
  readonly replace?: readonly string[];
}

export interface DownloadReceiptRequest {
  /** The server's challenge and receipt calls, answered from the files the engine wrote. */
  readonly calls: ReceiptCalls;
  readonly issued: () => void;
}

/**
 * Runs one download to its end. A fatal failure rejects with an error carrying a `kind`
 * (`DownloadErrorKind`), as the engine's `runDownload` does; files that failed on their own are
 * in the outcome.
 */
export type DownloadRunner = (job: DownloadJob) => Promise<DownloadOutcome>;

/** The error kind a runner's rejection carries, or 'other' for anything unclassified. */
export function errorKindOf(error: unknown): DownloadErrorKind {
  const kind = (error as { kind?: unknown } | null)?.kind;
  const kinds: readonly string[] = [
    'write',
    'occupied',
    'quota_exceeded',
    'name',
    'directory_handle_invalid',
    'verification',
    'network',
    'other',
  ];
  return typeof kind === 'string' && kinds.includes(kind) ? (kind as DownloadErrorKind) : 'other';
}

/**
 * The files already in the folder that a runner's rejection of kind `occupied` names (the
 * engine's `OccupiedFolderError`, its cause): nothing was written, they are the person's.
 */
export function filesInTheWay(error: unknown): readonly string[] {
  if (errorKindOf(error) !== 'occupied') return [];
  const files = (error as { files?: unknown; cause?: { files?: unknown } }).cause?.files;
  return Array.isArray(files) ? files.filter((file) => typeof file === 'string') : [];
}
