/**
 * What the UI and the CLI observe of an upload: one record per package, replaced (never
 * mutated) on every change, so a Redux slice can store it as it comes.
 */

export type UploadStatus =
  /** Waiting in the queue behind another upload. */
  | 'QUEUED'
  | 'UPLOADING'
  /** Some files failed an attempt and are being sent again. */
  | 'RETRYING'
  /** Stopped (by the person, or for a reason `pausedFor` names); nothing is sent until Resume. */
  | 'PAUSED'
  /** Every byte is in storage and reported; finalising comes next. */
  | 'UPLOADED'
  /** Finalising: the server checks every file and sends the package. */
  | 'COMPLETING'
  /** Sent; the recipients are emailed. */
  | 'COMPLETED'
  /** Sent without the files that failed; the recipients are emailed. */
  | 'FORCE_COMPLETED'
  /** Finalising failed; Retry finalises again. */
  | 'INCOMPLETE'
  /** Files failed every retry, or the error rate aborted the upload; Retry sends the failed files. */
  | 'FAILED';

/**
 * Why an upload is PAUSED. The person's pause waits for Resume; the others resume by themselves
 * once their cause has passed (Resume tries at once).
 */
export type PauseReason =
  /** The person pressed Pause. */
  | 'person'
  /**
   * The session ended (signed out, here or in another tab): every call of the API is refused
   * until the same person signs in again, which resumes it.
   */
  | 'session'
  /** Storage answered 507 Insufficient Storage: its volume is full; the engine probes it. */
  | 'storage_full';

/** What the UI and the CLI say about a pause the person did not ask for. */
export const pauseMessages: Readonly<Record<PauseReason, string | null>> = {
  person: null,
  session: 'You were logged out: the upload resumes when you log in again',
  storage_full: 'Storage is full: the upload is paused',
};

/** A file that failed, as the person picked it (so the same file can be picked again). */
export interface FileRef {
  path: string;
  size: number;
  lastModified: number;
}

export interface UploadProgress {
  totalFiles: number;
  totalBytes: number;
  completedFiles: number;
  /** Bytes sent so far, never decreasing. */
  completedBytes: number;
  /** Bytes found already stored by an earlier run, counted in completedBytes without being sent. */
  resumingBytes: number;
  /** Bytes per second, over the last second. */
  rate: number;
  /** Seconds left at the current rate; null while no rate is known. */
  estimated: number | null;
}

export interface UploadRecord {
  /** The engine's id of this upload (the package slug once it exists). */
  id: string;
  /** The package's name. */
  sentPackage: string;
  /** When the upload started (epoch ms); null while queued. */
  startDate: number | null;
  complete: boolean;
  completeDate: number | null;
  retryingFiles: FileRef[];
  failedFiles: FileRef[];
  progress: UploadProgress;
  status: UploadStatus;
  /** Why it is PAUSED; null in every other status. */
  pausedFor: PauseReason | null;
  /** Why it failed or is incomplete, in the engine's words (never a URL or a secret). */
  error: string | null;
  /** Cancelled by the person: the upload is over and leaves the queue (its package is never sent). */
  cancelled: boolean;
}

/** What may follow each status. */
const transitions: Record<UploadStatus, readonly UploadStatus[]> = {
  QUEUED: ['UPLOADING'],
  UPLOADING: ['RETRYING', 'PAUSED', 'UPLOADED', 'FAILED'],
  RETRYING: ['UPLOADING', 'PAUSED', 'UPLOADED', 'FAILED'],
  // Resume continues where it stopped, retrying files included.
  PAUSED: ['UPLOADING', 'RETRYING'],
  UPLOADED: ['COMPLETING'],
  // A finalise refused because the session ended waits, paused, for a sign-in.
  COMPLETING: ['COMPLETED', 'FORCE_COMPLETED', 'INCOMPLETE', 'PAUSED'],
  COMPLETED: [],
  FORCE_COMPLETED: [],
  // Retry finalises again; files that turn out to be missing are sent again first.
  INCOMPLETE: ['COMPLETING', 'UPLOADING'],
  // Retry sends the failed files; Complete force-finalises with the files that arrived.
  FAILED: ['UPLOADING', 'COMPLETING'],
};

export function canMove(from: UploadStatus, to: UploadStatus): boolean {
  return transitions[from].includes(to);
}

/** The controls a status offers the person. */
export interface UploadActions {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
  /** Send the failed files again (FAILED), or finalise again (INCOMPLETE). */
  retry: boolean;
  /** Finalise with the files that arrived, leaving out the failed ones. */
  complete: boolean;
}

/**
 * What the person can do now. Pause and Resume while sending (the UI also hides them while
 * offline); Cancel while active, failed or incomplete; Complete only after a failure and only
 * when at least one file arrived; nothing while finalising.
 */
export function actionsOf(record: UploadRecord): UploadActions {
  const { status } = record;
  const sending = status === 'UPLOADING' || status === 'RETRYING';
  return {
    pause: sending,
    resume: status === 'PAUSED',
    cancel:
      sending ||
      status === 'PAUSED' ||
      status === 'QUEUED' ||
      status === 'FAILED' ||
      status === 'INCOMPLETE',
    retry: status === 'FAILED' || status === 'INCOMPLETE',
    complete: status === 'FAILED' && record.progress.completedFiles > 0,
  };
}

/** Whether the upload is over for good (the queue moves on). */
export function isSettled(status: UploadStatus): boolean {
  return status === 'COMPLETED' || status === 'FORCE_COMPLETED';
}

/** An upload's record, sent on every change (statuses, progress at most a few times a second). */
export type UploadListener = (record: UploadRecord) => void;
