import cliProgress from 'cli-progress';
import type { UploadRecord } from '@filerunner/transfer/node';

/** Shows an upload's progress as its records come; `stop` leaves the terminal clean. */
export interface ProgressView {
  show(record: UploadRecord): void;
  stop(): void;
}

/** Bytes in decimal units, as FileRunner shows sizes everywhere. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  // Three significant digits: 2.41 GB, 48.2 MB/s, 320 MB.
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return unit === 0 ? `${bytes} B` : `${value.toFixed(digits)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min ${s % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const percentOf = (record: UploadRecord) => {
  const { completedBytes, totalBytes } = record.progress;
  return totalBytes === 0 ? 100 : Math.floor((completedBytes / totalBytes) * 100);
};

/** One line of where the upload stands, for logs and for the bar's payload. */
export function progressLine(record: UploadRecord): string {
  const p = record.progress;
  const parts = [
    `${record.status} ${percentOf(record)}%`,
    `${formatBytes(p.completedBytes)} of ${formatBytes(p.totalBytes)}`,
    `${p.completedFiles} of ${p.totalFiles} files`,
  ];
  const sending = record.status === 'UPLOADING' || record.status === 'RETRYING';
  if (sending && p.rate > 0) parts.push(`${formatBytes(p.rate)}/s`);
  if (sending && p.estimated !== null) parts.push(`about ${formatDuration(p.estimated)} left`);
  return parts.join(', ');
}

/**
 * On a terminal, a bar redrawn in place (cli-progress, at most 10 times a second); elsewhere (a
 * log file, CI) a plain line every `intervalMs` and at every change of status, so logs stay
 * readable and still show the upload is alive. Quiet shows nothing.
 */
export function progressView(options: {
  stream: NodeJS.WriteStream;
  quiet: boolean;
  intervalMs?: number;
  now?: () => number;
}): ProgressView {
  if (options.quiet) return { show: () => undefined, stop: () => undefined };
  if (options.stream.isTTY) return terminalBar(options.stream);
  return periodicLines(options.stream, options.intervalMs ?? 10_000, options.now ?? Date.now);
}

function terminalBar(stream: NodeJS.WriteStream): ProgressView {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {percentage}% | {done} of {size} | {files} files | {state} {left}',
      hideCursor: true,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    show(record) {
      const p = record.progress;
      const payload = {
        done: formatBytes(p.completedBytes),
        size: formatBytes(p.totalBytes),
        files: `${p.completedFiles}/${p.totalFiles}`,
        // While sending, the rate (or that files are being retried); then the status itself.
        state:
          record.status === 'UPLOADING'
            ? `${formatBytes(p.rate)}/s`
            : record.status.toLowerCase().replace('_', ' '),
        left:
          record.status === 'UPLOADING' && p.estimated !== null
            ? `${formatDuration(p.estimated)} left`
            : '',
      };
      // Never 0 of 0: the bar divides by its total.
      const total = Math.max(1, p.totalBytes);
      if (!started) {
        bar.start(total, Math.min(total, p.completedBytes), payload);
        started = true;
      } else bar.update(Math.min(total, p.completedBytes), payload);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

function periodicLines(stream: NodeJS.WriteStream, intervalMs: number, now: () => number) {
  let lastAt = -Infinity;
  let lastStatus: string | null = null;
  let latest: UploadRecord | null = null;
  let printed: UploadRecord | null = null;
  const print = (record: UploadRecord) => {
    stream.write(`${progressLine(record)}\n`);
    printed = record;
    lastAt = now();
    lastStatus = record.status;
  };
  return {
    show(record: UploadRecord) {
      // Waiting for its turn is over in an instant here: nothing worth a line.
      if (record.status === 'QUEUED') return;
      latest = record;
      if (record.status !== lastStatus || now() - lastAt >= intervalMs) print(record);
    },
    stop() {
      // The last state is on record, whatever the interval said.
      if (latest && latest !== printed) print(latest);
    },
  } satisfies ProgressView;
}
