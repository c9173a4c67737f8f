import type { DownloadRecord, DownloadStatus } from './downloads-slice';
import { isSettledDownload } from './downloads-slice';
import type { Tone } from './upload-panel-model';

/** The status as the download queue shows it. */
export function downloadStatusLabel(
  record: Pick<DownloadRecord, 'status' | 'retryCount' | 'percentComplete'>,
): string {
  const labels: Record<DownloadStatus, string> = {
    QUEUED: record.retryCount > 0 ? 'Retrying' : 'Queued',
    DOWNLOADING: `Downloading ${record.percentComplete}%`,
    COMPLETED: 'Completed',
    FAILED: 'Failed',
    PARTIALLY_FAILED: 'Partially Failed',
  };
  return labels[record.status];
}

/** The panel's colour for a download: red when it failed, yellow when retried or partial. */
export function downloadTone(record: Pick<DownloadRecord, 'status' | 'retryCount'>): Tone {
  if (record.status === 'FAILED') return 'error';
  if (record.status === 'PARTIALLY_FAILED') return 'warning';
  if (record.status === 'QUEUED' && record.retryCount > 0) return 'warning';
  return 'primary';
}

/** The download queue's colour: the most pressing of its downloads'. */
export function downloadsTone(downloads: readonly DownloadRecord[]): Tone {
  const tones = new Set(downloads.map(downloadTone));
  if (tones.has('error')) return 'error';
  if (tones.has('warning')) return 'warning';
  return 'primary';
}

/** How far the download queue is, 0 to 100: each download counts alike (sizes come late). */
export function downloadsPercent(downloads: readonly DownloadRecord[]): number {
  if (downloads.length === 0) return 0;
  const sum = downloads.reduce(
    (total, d) => total + (isSettledDownload(d.status) ? 100 : d.percentComplete),
    0,
  );
  return Math.floor(sum / downloads.length);
}
