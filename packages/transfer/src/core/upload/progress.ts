import { estimateSeconds, NeverBackward, RateMeter } from '../meters';
import type { ByteSource } from '../ports';
import {
  canMove,
  type FileRef,
  type PauseReason,
  type UploadListener,
  type UploadRecord,
  type UploadStatus,
} from './events';

/** Progress is told to listeners at most this often; status changes go out at once. */
const PROGRESS_EVERY_MS = 250;

const refOf = (source: ByteSource): FileRef => ({
  path: source.path,
  size: source.size,
  lastModified: source.lastModified,
});

/**
 * The upload's record and its figures: which files are done, retrying or failed, the bytes
 * stored, in flight and found from an earlier run, the rate and the estimate. Every change
 * makes a new record for the listeners.
 */
export class UploadTracker {
  private record: UploadRecord;
  private readonly listeners = new Set<UploadListener>();
  private readonly retrying = new Map<string, ByteSource>();
  private readonly failed = new Map<string, ByteSource>();
  private readonly completed = new Set<string>();
  private storedBytes = 0;
  private sentBytes = 0;
  private readonly inFlight = new Map<object, number>();
  /** Jobs whose bytes are counted as stored, so a job sent again is not counted twice. */
  private readonly storedJobs = new WeakSet<object>();
  private readonly shown = new NeverBackward();
  private readonly rate: RateMeter;
  private lastEmit = 0;

  constructor(
    private readonly now: () => number,
    init: { id: string; name: string; totalFiles: number; totalBytes: number },
  ) {
    this.rate = new RateMeter(now);
    this.record = {
      id: init.id,
      sentPackage: init.name,
      startDate: null,
      complete: false,
      completeDate: null,
      retryingFiles: [],
      failedFiles: [],
      progress: {
        totalFiles: init.totalFiles,
        totalBytes: init.totalBytes,
        completedFiles: 0,
        completedBytes: 0,
        resumingBytes: 0,
        rate: 0,
        estimated: null,
      },
      status: 'QUEUED',
      pausedFor: null,
      error: null,
      cancelled: false,
    };
  }

  get current(): UploadRecord {
    return this.record;
  }

  subscribe(listener: UploadListener): () => void {
    this.listeners.add(listener);
    listener(this.record);
    return () => this.listeners.delete(listener);
  }

  /**
   * Moves to `status` (PAUSED for `pausedFor`, the person by default); throws on a move the
   * status machine does not have (an engine bug).
   */
  move(
    status: UploadStatus,
    error: string | null = this.record.error,
    pausedFor: PauseReason = 'person',
  ): void {
    const from = this.record.status;
    if (from === status) return;
    if (!canMove(from, status)) throw new Error(`an upload cannot go from ${from} to ${status}`);
    const at = this.now();
    this.record = {
      ...this.record,
      status,
      pausedFor: status === 'PAUSED' ? pausedFor : null,
      error,
      ...(status === 'UPLOADING' && this.record.startDate === null ? { startDate: at } : {}),
      ...(status === 'COMPLETED' || status === 'FORCE_COMPLETED'
        ? { complete: true, completeDate: at }
        : {}),
    };
    if (status === 'PAUSED') this.rate.reset();
    // Stopped attempts are not retrying; failed files are listed as failed only.
    if (status === 'PAUSED' || status === 'FAILED') {
      this.retrying.clear();
      this.changeFiles();
    }
    this.emit(true);
  }

  /** The bytes of job `key` were found stored by an earlier run: counted, not sent. */
  resumed(key: object, bytes: number): void {
    if (this.storedJobs.has(key)) return;
    this.storedJobs.add(key);
    this.storedBytes += bytes;
    this.record = {
      ...this.record,
      progress: {
        ...this.record.progress,
        resumingBytes: this.record.progress.resumingBytes + bytes,
      },
    };
    this.emit(false);
  }

  /** A request of `key` (a job) has sent this many of its file bytes so far. */
  sending(key: object, bytes: number): void {
    this.inFlight.set(key, bytes);
    this.emit(false);
  }

  /** The request of `key` ended; `stored` is true when its bytes are now in storage. */
  sent(key: object, bytes: number, stored: boolean): void {
    this.inFlight.delete(key);
    if (stored && !this.storedJobs.has(key)) {
      this.storedJobs.add(key);
      this.storedBytes += bytes;
      this.sentBytes += bytes;
    }
    this.emit(false);
  }

  /**
   * Told at most every PROGRESS_EVERY_MS like the bytes (unless the status changes): thousands
   * of small files finish within a second, and each record told costs the listeners a render.
   */
  fileDone(source: ByteSource): void {
    this.completed.add(source.path);
    const wasRetrying = this.retrying.delete(source.path);
    const { status } = this.record;
    this.changeFiles();
    this.emit(wasRetrying || this.record.status !== status);
  }

  fileRetrying(source: ByteSource): void {
    if (this.retrying.has(source.path) || this.failed.has(source.path)) return;
    this.retrying.set(source.path, source);
    this.emit(this.changeFiles());
  }

  fileRecovered(source: ByteSource): void {
    if (this.retrying.delete(source.path)) this.emit(this.changeFiles());
  }

  fileFailed(source: ByteSource): void {
    if (this.completed.has(source.path)) return;
    this.retrying.delete(source.path);
    this.failed.set(source.path, source);
    this.emit(this.changeFiles());
  }

  isDone(path: string): boolean {
    return this.completed.has(path);
  }

  hasFailed(path: string): boolean {
    return this.failed.has(path);
  }

  get retryingCount(): number {
    return this.retrying.size;
  }

  get failedSources(): ByteSource[] {
    return [...this.failed.values()];
  }

  /** The upload was cancelled: the last record says so, and it changes no more. */
  cancel(): void {
    this.record = { ...this.record, cancelled: true };
    this.emit(true);
  }

  /** Files the server found missing when finalising: they are sent (or reported) again. */
  reopen(paths: readonly string[]): void {
    for (const path of paths) this.completed.delete(path);
    this.emit(this.changeFiles());
  }

  /** The person pressed Retry: failed files are sent again. */
  clearFailed(): void {
    this.failed.clear();
    this.changeFiles();
  }

  private changeFiles(): true {
    // While sending, the status says whether files are being retried.
    let { status } = this.record;
    if (status === 'UPLOADING' && this.retrying.size > 0) status = 'RETRYING';
    else if (status === 'RETRYING' && this.retrying.size === 0) status = 'UPLOADING';
    this.record = {
      ...this.record,
      status,
      retryingFiles: [...this.retrying.values()].map(refOf),
      failedFiles: [...this.failed.values()].map(refOf),
      progress: { ...this.record.progress, completedFiles: this.completed.size },
    };
    return true;
  }

  private emit(now: boolean): void {
    const at = this.now();
    let flying = 0;
    for (const bytes of this.inFlight.values()) flying += bytes;
    this.rate.sample(this.sentBytes + flying);
    if (!now && at - this.lastEmit < PROGRESS_EVERY_MS) return;
    this.lastEmit = at;
    const { totalBytes } = this.record.progress;
    const completedBytes = this.shown.update(Math.min(totalBytes, this.storedBytes + flying));
    const rate = this.rate.rate();
    this.record = {
      ...this.record,
      progress: {
        ...this.record.progress,
        completedBytes,
        rate,
        estimated: estimateSeconds(totalBytes - completedBytes, rate),
      },
    };
    for (const listener of this.listeners) listener(this.record);
  }

  /** Sends the latest figures now (at the end of a stage, so nothing stale is left shown). */
  flush(): void {
    this.emit(true);
  }
}
