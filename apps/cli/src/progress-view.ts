import cliProgress from 'cli-progress';
import { formatDuration, formatRate, formatSize } from '@filerunner/protocol';
import type { UploadRecord } from '@filerunner/transfer/node';

/** Shows an upload's progress as its records come; `stop` leaves the terminal clean. */
export interface ProgressView {
  show(record: UploadRecord): void;
  stop(): void;
}

const percentOf = (record: UploadRecord) => {
  const { completedBytes, totalBytes } = record.progress;
  return totalBytes === 0 ? 100 : Math.floor((completedBytes / totalBytes) * 100);
};

/** One line of where the upload stands, for logs and for the bar's payload. */
export function progressLine(record: UploadRecord): string {
  const p = record.progress;
  const parts = [
    `${record.status}${record.pausedFor === 'storage_full' ? ' (storage is full)' : ''} ${percentOf(record)}%`,
    `${formatSize(p.completedBytes)} of ${formatSize(p.totalBytes)}`,
    `${p.completedFiles} of ${p.totalFiles} files`,
  ];
  const sending = record.status === 'UPLOADING' || record.status === 'RETRYING';
  if (sending && p.rate > 0) parts.push(formatRate(p.rate));
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
        done: formatSize(p.completedBytes),
        size: formatSize(p.totalBytes),
        files: `${p.completedFiles}/${p.totalFiles}`,
        // While sending, the rate (or that files are being retried); then the status itself.
        state:
          record.status === 'UPLOADING'
            ? formatRate(p.rate)
            : record.pausedFor === 'storage_full'
              ? 'paused: storage is full'
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
