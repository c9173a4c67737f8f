import { formatDuration, formatRate, formatSize } from '@filerunner/protocol';
import type { UploadProgress } from '@filerunner/transfer';
import type { DownloadProgress } from './download-runner';

const count = (n: number) => n.toLocaleString('en-US');

/** What an upload's progress line says. */
export interface ProgressFigures {
  /** '12 of 60 files' */
  files: string;
  /** '1.2 MB of 6 MB' */
  bytes: string;
  /** '9.6 Mb/s', or null while nothing is moving. */
  rate: string | null;
  /** '2 min 5 s left', or null while no rate is known. */
  timeLeft: string | null;
}

export function progressFigures(progress: UploadProgress, moving: boolean): ProgressFigures {
  const { totalFiles, completedFiles, totalBytes, completedBytes, rate, estimated } = progress;
  return {
    files: `${count(completedFiles)} of ${count(totalFiles)} ${totalFiles === 1 ? 'file' : 'files'}`,
    bytes: `${formatSize(completedBytes)} of ${formatSize(totalBytes)}`,
    rate: moving && rate > 0 ? formatRate(rate) : null,
    timeLeft: moving && estimated !== null ? `${formatDuration(estimated)} left` : null,
  };
}

/** How far an upload is, 0 to 100 (whole percent, 100 only when every byte is there). */
export function percentOf(completedBytes: number, totalBytes: number): number {
  if (totalBytes <= 0) return 0;
  return Math.min(100, Math.floor((completedBytes / totalBytes) * 100));
}

/** What a download's progress line says: bytes, rate and time left while it moves. */
export function downloadFigures(progress: DownloadProgress): Omit<ProgressFigures, 'files'> {
  const { receivedBytes, totalBytes, rate, estimated } = progress;
  return {
    bytes: `${formatSize(receivedBytes)} of ${formatSize(totalBytes)}`,
    rate: rate > 0 ? formatRate(rate) : null,
    timeLeft: estimated !== null ? `${formatDuration(estimated)} left` : null,
  };
}
