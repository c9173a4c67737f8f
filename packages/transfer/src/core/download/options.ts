import type { DownloadErrorKind, DownloadOptions } from './ports';

/** The engine's defaults, as the hidden settings dialog's download sliders start. */
export const defaultDownloadOptions: DownloadOptions = {
  chunkSize: 150_000_000,
  concurrentChunks: 10,
  retries: 3,
  algorithm: 'conservative',
  xhrTimeoutMs: 300_000,
  workerTimeoutMs: 360_000,
  progressIntervalMs: 60_000,
  rateCheckIntervalMs: 30_000,
};

/** How often chunks are checked for a stall, and how long without a byte counts as one. */
export const STALL_CHECK_INTERVAL_MS = 10_000;
export const STALL_TIMEOUT_MS = 180_000;
/** The Aggressive algorithm never runs more chunks at once than this. */
export const MAX_CONCURRENT_CHUNKS = 50;
/** Progress is told at least this often while bytes move, or at each 0.1 % of the total. */
export const PROGRESS_THROTTLE_MS = 1000;
export const PROGRESS_STEP = 0.001;
/** The download rate is measured over 100 samples across 10 s; the extract rate over 500 ms. */
export const RATE_SAMPLES = 100;
export const RATE_WINDOW_MS = 10_000;
export const EXTRACT_RATE_WINDOW_MS = 500;
/** The resume ledger is saved at most this often while bytes arrive, and at the end. */
export const LEDGER_SAVE_INTERVAL_MS = 2000;
/** The xxh128 of no bytes: what an empty file's recorded hash is. */
export const EMPTY_XXH128 = '99aa06d3014798d86001c324468d497f';

/**
 * The whole download stopped: the folder cannot be written or is full, the object changed on
 * the server, a chunk failed more often than the retries allow, or the grant was refused. The
 * kind is what the panel shows its message and actions by.
 */
export class DownloadFailedError extends Error {
  override readonly name = 'DownloadFailedError';
  constructor(
    readonly kind: DownloadErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
