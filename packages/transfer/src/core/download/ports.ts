import type { TarMember } from '@filerunner/protocol';
import type { Clock, FileHasher, HttpClient, ResumeStore } from '../ports';
import type { DownloadEvent } from './events';
import type { DownloadLedger } from './ledger';
import type { ByteRange } from './ranges';

/*
 * What the download engine needs from the platform, beside the HTTP port (whose responses must
 * have `body()`: the engine reads each ranged chunk as a stream) and the clock it shares with the
 * upload engine. A browser writes into a folder the person picked (File System Access API) or
 * hands the URL to the browser's own download; Node writes into a folder on disk.
 *
 * The tar a package downloads as is laid out deterministically from the grant's member list
 * (`layoutTar`), so every byte of any range is known to belong to one file at one offset, or to
 * the tar's own framing. Chunks arrive in any order and are written where they belong as they
 * stream; nothing waits for the bytes before it.
 */

/** What the engine downloads: a package's tar (unpacked or kept whole), or one file. */
export interface DownloadDescriptor {
  /** The grant's URL: the credential, never logged (only `withoutQuery` of it, which is not enough either: log the filename). */
  readonly downloadUrl: string;
  /** The name the browser would save it under (`<package>.tar`, or the file's name). */
  readonly filename: string;
  /** Total bytes at `downloadUrl`. */
  readonly size: number;
  /**
   * For a package: the tar's members in order and their one mtime, as the grant gave them. For
   * one file: absent (the single file's hash, when known, is `xxh128`).
   */
  readonly tar?: { readonly mtime: number; readonly files: readonly TarMember[] };
  /** One file's recorded hash, when the descriptor is a single file. */
  readonly xxh128?: string | null;
}

/** How the bytes land in the folder: each file unpacked in place, or the `.tar` itself. */
export type SinkMode = 'unpack' | 'tar';

/**
 * Where a download's bytes are written. `unpack` targets are the tar's members by index (bytes at
 * offsets within the file; headers and padding never reach the sink); `tar` mode has one target,
 * index 0, written at tar offsets. Writes to one target may come from several chunks at once,
 * at different offsets, never overlapping.
 */
export interface DownloadSink {
  readonly mode: SinkMode;
  /**
   * Makes room for the download: folders and empty files created up front (an empty file never
   * receives a write), and what an earlier run left found again. `resumable` says which targets
   * the sink still holds from that run, so the ledger's ranges for the others are dropped.
   * `failed` names targets the folder cannot hold (an invalid name, an empty file that could not
   * be made): those files fail, the others go on. `writtenBefore` are the targets the ledger
   * says an earlier run of this download finished: a sink that must not replace files it did
   * not write takes these as its own. `claimedBefore` says an earlier run already found every
   * target's name free or its own (see `DownloadLedger.claimed`): any file at one is its own.
   * A sink that finds a file it may not replace rejects with `OccupiedFolderError`.
   */
  open(
    targets: readonly SinkTarget[],
    signal?: AbortSignal,
    writtenBefore?: ReadonlySet<number>,
    claimedBefore?: boolean,
  ): Promise<{ resumable: Set<number>; failed?: ReadonlyMap<number, DownloadSinkError> }>;
  /** Writes `data` at `offset` of target `index`, opening it first if needed. */
  write(index: number, offset: number, data: Uint8Array, signal?: AbortSignal): Promise<void>;
  /**
   * Every byte of target `index` is written: close it, so it is on disk under its real name.
   * After this, `read` gives its bytes for verification.
   */
  close(index: number): Promise<void>;
  /** The finished target's bytes (for the hash check), read lazily. */
  read(index: number): Promise<Blob>;
  /**
   * The closed target's bytes as they were written, when the sink kept a copy (small files in
   * the browser, where finding a file again and reading it back costs more than the copy); null
   * when it did not, and the check reads the file. Taken once, right after `close`.
   */
  heldBytes?(index: number): Blob | null;
  /**
   * A sink that hashes an unpacked file as its bytes are written answers the closed target's
   * xxh128 here, so the check need not read the file again; null when it could not take all of
   * them (the check then reads the file). Without this, every check reads the file.
   */
  writtenXxh128?(index: number): Promise<string | null>;
  /**
   * The ranges of target `index` an earlier run wrote (the ledger's), told after `open` to a
   * sink that hashes as it writes, so it takes those bytes from the file once.
   */
  resumed?(index: number, ranges: readonly ByteRange[]): void;
  /**
   * True when bytes a `write` has resolved for survive a crash before `close` (positional writes
   * to a file on disk); false when they appear only once the target is closed (a browser's
   * writable stream commits its swap file on close). The ledger records a target's ranges as
   * they are written only when this is true, else when the target closes.
   */
  readonly keepsUnclosedWrites: boolean;
  /** Removes a target that failed verification (its bytes are not what was sent). */
  discard(index: number): Promise<void>;
  /** Closes whatever is still open (abort, or the end). */
  dispose(): Promise<void>;
}

/** A target the sink is asked to hold. */
export interface SinkTarget {
  readonly index: number;
  /** Path inside the folder, '/'-separated: a member's user path, or the `.tar`'s filename. */
  readonly path: string;
  readonly size: number;
}

/**
 * Why a file or the whole download failed, as the panel shows it (each kind has its message and
 * actions in the UI): the folder cannot be written, it already holds files the download did not
 * make, it is full, a name cannot exist there, the folder's handle is no longer valid, or
 * anything else.
 */
export type DownloadErrorKind =
  | 'write'
  | 'occupied'
  | 'quota_exceeded'
  | 'name'
  | 'directory_handle_invalid'
  | 'verification'
  | 'network'
  | 'other';

/** A sink's failure, classified so the engine knows whether to stop (fatal) or fail one file. */
export class DownloadSinkError extends Error {
  override readonly name = 'DownloadSinkError';
  constructor(
    readonly kind: DownloadErrorKind,
    message: string,
    /** True when no later write can succeed either (quota, a revoked folder): the download stops. */
    readonly fatal: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/*
 * What the engine gives its callers (the web's download queue, the CLI, the debug page). The
 * queue owns statuses (Queued, Downloading, Completed, Failed, Partially Failed); the engine runs
 * one download and reports progress, events and the outcome.
 */

/** The engine's tuning: the hidden settings dialog's download sliders, the defaults below. */
export interface DownloadOptions {
  readonly chunkSize: number;
  readonly concurrentChunks: number;
  readonly retries: number;
  /** Conservative keeps `concurrentChunks`; Aggressive (Experimental) raises it while the rate grows. */
  readonly algorithm: 'conservative' | 'aggressive';
  /** A chunk with no answer in this long is retried. */
  readonly xhrTimeoutMs: number;
  /** A chunk not finished in this long is aborted and retried. */
  readonly workerTimeoutMs: number;
  readonly progressIntervalMs: number;
  readonly rateCheckIntervalMs: number;
}

export interface DownloadProgress {
  readonly totalBytes: number;
  /** Bytes on disk (this run and the ones found from an earlier run), never decreasing. */
  readonly receivedBytes: number;
  /** Bytes found already on disk from an earlier run, counted in receivedBytes. */
  readonly resumedBytes: number;
  readonly totalFiles: number;
  /** Files written, closed and (when a hash is known) verified. */
  readonly completedFiles: number;
  /** Bytes per second, over the download rate's window. */
  readonly rate: number;
  /** Bytes written to the folder per second, over the extract rate's window. */
  readonly extractRate: number;
  /** Seconds left at the current rate; null while no rate is known. */
  readonly estimated: number | null;
}

/** A file that did not arrive as sent, and why. */
export interface FailedDownloadFile {
  readonly path: string;
  readonly kind: DownloadErrorKind;
  readonly message: string;
}

export interface DownloadOutcome {
  /** Files written and whose xxh128 matched the sender's. */
  readonly verifiedFiles: number;
  /** Files written whose sender recorded no hash: not checked, and said so. */
  readonly unverifiedFiles: readonly string[];
  readonly failedFiles: readonly FailedDownloadFile[];
  /** Bytes fetched over the network by this run (an earlier run's are not counted). */
  readonly fetchedBytes: number;
}

/** What `runDownload` is given: one download, where it goes, and the ports it runs on. */
export interface DownloadJob {
  readonly descriptor: DownloadDescriptor;
  readonly sink: DownloadSink;
  /** Its responses must have `body()`. */
  readonly http: HttpClient;
  readonly clock?: Clock;
  /** Where what is written is recorded, so a later run fetches only the rest. */
  readonly ledger?: ResumeStore<DownloadLedger>;
  /** Defaults to `ledgerKeyOf(descriptor, sink.mode)`: the same package across grants. */
  readonly ledgerKey?: string;
  /** Without one, files are written but listed as unverified. */
  readonly hasher?: FileHasher;
  readonly options?: Partial<DownloadOptions>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly onEvent?: (event: DownloadEvent) => void;
}
