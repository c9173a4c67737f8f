import {
  isSettled,
  pauseMessages,
  type UploadRecord,
  type UploadStatus,
} from '@filerunner/transfer';
import { percentOf } from './transfer-format';

/** The panel's widths: a ring when collapsed, the queue when expanded. */
export const PANEL_COLLAPSED_WIDTH = 80;
export const PANEL_EXPANDED_WIDTH = 560;
/** How long Retry shows its spinner before the retry starts, so the press is seen to land. */
export const RETRY_SPINNER_MS = 1000;

/** The status as the queue shows it. */
export const uploadStatusLabel: Record<UploadStatus, string> = {
  QUEUED: 'Queued',
  UPLOADING: 'Uploading',
  RETRYING: 'Retrying',
  PAUSED: 'Paused',
  UPLOADED: 'Uploaded',
  COMPLETING: 'Completing',
  COMPLETED: 'Completed',
  FORCE_COMPLETED: 'Completed without failed files',
  INCOMPLETE: 'Incomplete',
  FAILED: 'Failed',
};

/** The panel's colour: red for trouble that needs the person, yellow for trouble in hand, teal. */
export type Tone = 'error' | 'warning' | 'primary';

const toneOfStatus: Record<UploadStatus, Tone> = {
  QUEUED: 'primary',
  UPLOADING: 'primary',
  // Sending goes on while some files are sent again; sent without some files is a caveat.
  RETRYING: 'warning',
  FORCE_COMPLETED: 'warning',
  // Nothing moves until the person acts.
  PAUSED: 'error',
  FAILED: 'error',
  INCOMPLETE: 'error',
  UPLOADED: 'primary',
  COMPLETING: 'primary',
  COMPLETED: 'primary',
};

export function uploadTone(upload: UploadRecord): Tone {
  // Paused by a full storage, the upload resumes by itself once space returns: trouble in hand.
  if (upload.status === 'PAUSED' && upload.pausedFor === 'storage_full') return 'warning';
  return toneOfStatus[upload.status];
}

/** The queue's colour: the most pressing of its uploads'. */
export function queueTone(uploads: readonly UploadRecord[]): Tone {
  const tones = new Set(uploads.map(uploadTone));
  if (tones.has('error')) return 'error';
  if (tones.has('warning')) return 'warning';
  return 'primary';
}

/** How far one upload is, 0 to 100; a sent package is whole even when it had no bytes. */
export function uploadPercent(upload: UploadRecord): number {
  if (isSettled(upload.status)) return 100;
  return percentOf(upload.progress.completedBytes, upload.progress.totalBytes);
}

/** How far the whole queue is, by bytes, for the collapsed ring. */
export function queuePercent(uploads: readonly UploadRecord[]): number {
  if (uploads.length > 0 && uploads.every((u) => isSettled(u.status))) return 100;
  let total = 0;
  let done = 0;
  for (const upload of uploads) {
    total += upload.progress.totalBytes;
    done += isSettled(upload.status) ? upload.progress.totalBytes : upload.progress.completedBytes;
  }
  return percentOf(done, total);
}

/** The queue can be cleared once every upload in it is sent (and nothing is downloading). */
export function canClearQueue(uploads: readonly UploadRecord[], downloads: number): boolean {
  return downloads === 0 && uploads.length > 0 && uploads.every((u) => isSettled(u.status));
}

/** A banner over an upload that is in trouble. */
export interface UploadBanner {
  severity: 'error' | 'warning';
  text: string;
  /** Whether the banner offers the list of failed files. */
  viewFiles: boolean;
}

export const uploadBannerText = {
  failed: 'We failed to upload some of your files',
  retrying: 'We are having trouble uploading some of your files',
  incomplete: 'We experienced an issue completing your package. Please retry or cancel.',
} as const;

export function bannerOf(upload: UploadRecord): UploadBanner | null {
  switch (upload.status) {
    case 'FAILED':
      return {
        severity: 'error',
        text: uploadBannerText.failed,
        viewFiles: upload.failedFiles.length > 0,
      };
    case 'RETRYING':
      return { severity: 'warning', text: uploadBannerText.retrying, viewFiles: false };
    case 'INCOMPLETE':
      return { severity: 'error', text: uploadBannerText.incomplete, viewFiles: false };
    case 'PAUSED': {
      // A pause the person did not ask for says why; theirs needs no banner.
      const text = upload.pausedFor ? pauseMessages[upload.pausedFor] : null;
      return text ? { severity: 'warning', text, viewFiles: false } : null;
    }
    default:
      return null;
  }
}

/** What a sent package tells the person. */
export function sentMessageOf(upload: Pick<UploadRecord, 'status'>): string | null {
  if (upload.status === 'COMPLETED') {
    return 'Your package has been sent. The recipients have been emailed.';
  }
  if (upload.status === 'FORCE_COMPLETED') {
    return 'Your package has been sent without the files that failed. The recipients have been emailed.';
  }
  return null;
}
