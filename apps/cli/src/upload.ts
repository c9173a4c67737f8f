import {
  FetchHttpClient,
  nodeUploadPorts,
  pauseMessages,
  UploadRunner,
  type ApiTarget,
  type FileRef,
  type UploadPackage,
  type UploadPlan,
  type UploadRecord,
} from '@filerunner/transfer/node';
import { CliFailure } from './failures';
import type { ProgressView } from './progress-view';
import { formatSize } from '@filerunner/protocol';

/** Where `send` talks to the person running it, and what stops it. */
export interface UploadIo {
  /** A line for the person (stderr): what is happening, what went wrong. */
  say(line: string): void;
  progress: ProgressView;
  /** Aborted by Ctrl-C or SIGTERM; its reason is the `CliFailure` to end with. */
  signal: AbortSignal;
}

export interface UploadJob {
  plan: UploadPlan;
  pkg: UploadPackage;
  api: ApiTarget;
  ledgerFile: string;
  workers: number | undefined;
}

/** Failed files named in the message at most. */
const LISTED_FILES = 10;

/**
 * Said once when storage is full. The command waits rather than ending: the engine tries again
 * by itself and sends only what is missing, and a full volume is mended by its operator or the
 * server's own sweep of expired packages, often within minutes. Ending would leave a delivery
 * script to retry blindly; waiting sends the package as soon as it can, and Ctrl-C still stops
 * it with the ledger kept.
 */
const STORAGE_FULL_LINE =
  `${pauseMessages.storage_full}. It resumes by itself once the server has space again; ` +
  'Ctrl-C stops it, and the same command run later sends the rest.';

/**
 * Sends the plan's files into the package with the engine, keeping the ledger in `ledgerFile`,
 * and resolves once the package is sent. When files fail their retries (FAILED) or the server
 * does not accept the package (INCOMPLETE) it stops and throws: a person at the browser would
 * press Retry, a script runs the command again, which sends only what is missing. A stop by
 * `io.signal` ends the upload the way a crash does (the ledger kept) and throws its reason.
 * When storage is full (507) it says so once and waits while the engine pauses and resumes.
 */
export async function runUpload(job: UploadJob, io: UploadIo): Promise<UploadRecord> {
  const failed = new AbortController();
  const runner = new UploadRunner(
    {
      api: job.api,
      plan: job.plan,
      package: job.pkg,
      ...(job.workers ? { workers: job.workers } : {}),
      signal: AbortSignal.any([io.signal, failed.signal]),
    },
    nodeUploadPorts({ ledgerFile: job.ledgerFile, http: new FetchHttpClient() }),
  );
  let stuck: UploadRecord | null = null;
  let saidStorageFull = false;
  const unsubscribe = runner.subscribe((record) => {
    io.progress.show(record);
    if (record.pausedFor === 'storage_full' && !saidStorageFull) {
      saidStorageFull = true;
      io.say(STORAGE_FULL_LINE);
    }
    if (!stuck && (record.status === 'FAILED' || record.status === 'INCOMPLETE')) {
      stuck = record;
      failed.abort(new Error(record.status));
    }
  });
  try {
    const record = await runner.start();
    if (record.status !== 'COMPLETED' && record.status !== 'FORCE_COMPLETED') {
      throw new CliFailure('unexpected', `The upload ended as ${record.status}.`);
    }
    return record;
  } catch (error) {
    if (io.signal.aborted) throw stoppedFailure(io.signal, runner.record, job.pkg);
    if (stuck) throw stuckFailure(stuck, job.pkg);
    throw error;
  } finally {
    unsubscribe();
    io.progress.stop();
  }
}

function stoppedFailure(signal: AbortSignal, record: UploadRecord, pkg: UploadPackage) {
  const reason = signal.reason instanceof CliFailure ? signal.reason : null;
  const p = record.progress;
  return new CliFailure(
    reason?.kind ?? 'interrupted',
    `${reason?.message ?? 'Interrupted'} with ${formatSize(p.completedBytes)} of ` +
      `${formatSize(p.totalBytes)} sent and ${p.completedFiles} of ${p.totalFiles} files ` +
      `complete in package ${pkg.slug}. Run the same command again to send the rest.`,
  );
}

function stuckFailure(record: UploadRecord, pkg: UploadPackage) {
  const lines = [
    `${record.error ?? 'The upload failed'} (package ${pkg.slug}).`,
    ...failedFilesLines(record.failedFiles),
    'Run the same command again to send what is missing.',
  ];
  return new CliFailure('uploadFailed', lines.join('\n'));
}

function failedFilesLines(files: readonly FileRef[]): string[] {
  if (files.length === 0) return [];
  return [
    `${files.length} file(s) failed:`,
    ...files.slice(0, LISTED_FILES).map((f) => `  ${f.path}`),
    ...(files.length > LISTED_FILES ? [`  and ${files.length - LISTED_FILES} more`] : []),
  ];
}
