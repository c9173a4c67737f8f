import { systemClock, type Clock } from '../ports';
import { backoff, ChunkAttemptError, fetchChunk, headObject, messageOf } from './object-requests';
import type { DownloadEvent } from './events';
import { earlierRunOf, ledgerKeyOf, LedgerKeeper } from './ledger';
import type { DownloadLedger, LedgerTarget } from './ledger';
import { defaultDownloadOptions, DownloadFailedError } from './options';
import { chunksOf, placementsOf, planDownload, rangesToFetch, type Chunk } from './plan';
import {
  DownloadSinkError,
  type DownloadJob,
  type DownloadErrorKind,
  type DownloadOptions,
  type DownloadOutcome,
  type DownloadSink,
  type FailedDownloadFile,
} from './ports';
import { RangeSet } from './ranges';
import { Pacing, type ActiveAttempt } from './pacing';
import { ProgressReporter } from './progress';
import { CheckQueue, checksOf, runCheck, type FileCheck } from './verification';

/**
 * Downloads one package (unpacked into the sink's folder, or its `.tar` kept whole) or one file:
 * a HEAD for the size and ETag, then ranged chunks, several at once, each written where its
 * bytes belong as it streams, each file closed and checked against the sender's hash as soon as
 * its last byte is written.
 *
 * Resolves with the outcome, which lists files that failed (a name the folder refuses, bytes
 * that are not what was sent) and those that could not be checked.
 * @throws DownloadFailedError when the whole download stops (see its kind), or the signal's
 *   reason when aborted; what was written is kept in the ledger for the next run.
 */
export async function runDownload(job: DownloadJob): Promise<DownloadOutcome> {
  // Async, so a file list refused by the plan rejects like every other failure.
  return new DownloadRun(job).run();
}

type TargetState = 'open' | 'closing' | 'done' | 'failed';

/** How many closed files are hashed at once, beside the chunks still arriving. */
const CHECKS_AT_ONCE = 2;

class DownloadRun {
  private readonly options: DownloadOptions;
  private readonly clock: Clock;
  private readonly plan;
  private readonly sink: DownloadSink;
  /** Aborted when the run ends, whichever way: stops chunks, timers and the ledger's wait. */
  private readonly ended = new AbortController();
  private readonly ledger: LedgerKeeper;
  private etag: string | null = null;
  /** The sink found the package's names free, or the download's own, or to be replaced. */
  private claimed = false;

  private readonly states: TargetState[];
  private readonly written = new Map<number, RangeSet>();
  private readonly outcomes = new Map<number, 'verified' | 'unverified'>();
  private readonly failed: FailedDownloadFile[] = [];
  private readonly unverified: string[] = [];
  private verifiedFiles = 0;
  private completedFiles = 0;
  private readonly totalFiles: number;

  private readonly totalBytes: number;
  private resumedBytes = 0;
  private writtenBytes = 0;
  private fetchedBytes = 0;
  private readonly reporter: ProgressReporter;

  private readonly pacing: Pacing;

  private readonly checks = new CheckQueue(CHECKS_AT_ONCE, (error) => {
    if (!this.ended.signal.aborted) this.ended.abort(error);
  });

  constructor(private readonly job: DownloadJob) {
    this.options = { ...defaultDownloadOptions, ...job.options };
    this.clock = job.clock ?? systemClock;
    this.sink = job.sink;
    this.plan = planDownload(job.descriptor, job.sink.mode);
    this.states = this.plan.targets.map(() => 'open');
    this.totalFiles = job.descriptor.tar ? job.descriptor.tar.files.length : 1;
    this.totalBytes = this.plan.targets.reduce((sum, target) => sum + target.size, 0);
    this.reporter = new ProgressReporter(
      this.clock,
      this.totalBytes,
      this.totalFiles,
      job.onProgress,
    );
    this.pacing = new Pacing(this.options, this.clock, this.reporter, (event) => this.emit(event));
    this.ledger = new LedgerKeeper(
      job.ledger,
      job.ledgerKey ?? ledgerKeyOf(job.descriptor, job.sink.mode),
      this.clock,
      () => this.snapshot(),
      this.ended.signal,
    );
  }

  async run(): Promise<DownloadOutcome> {
    const { signal } = this.job;
    const onAbort = () => this.ended.abort(signal!.reason);
    signal?.throwIfAborted();
    signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      const { http, descriptor } = this.job;
      this.etag = await headObject(
        descriptor,
        {
          http,
          clock: this.clock,
          retries: this.options.retries,
          timeoutMs: this.options.xhrTimeoutMs,
        },
        this.ended.signal,
      );
      await this.openSink();
      const chunks = chunksOf(
        rangesToFetch(this.plan, (index) =>
          this.states[index] === 'open'
            ? this.writtenOf(index).missing(this.plan.targets[index]!.size)
            : [],
        ),
        this.options.chunkSize,
      );
      const ticking = this.pacing.run(this.ended.signal, () => this.progress(true));
      await this.runChunks(chunks);
      await this.allChecked();
      this.progress(true);
      finished = true;
      this.ended.abort(new Error('download finished'));
      await ticking;
      if (this.failed.length === 0) await this.ledger.delete();
      else await this.ledger.flush();
      return {
        verifiedFiles: this.verifiedFiles,
        unverifiedFiles: this.unverified,
        failedFiles: this.failed,
        fetchedBytes: this.fetchedBytes,
      };
    } catch (error) {
      signal?.throwIfAborted();
      throw error instanceof DownloadSinkError
        ? new DownloadFailedError(error.kind, error.message, { cause: error })
        : error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) {
        this.ended.abort(signal?.reason ?? new Error('download stopped'));
        await this.settled();
        await this.ledger.flush().catch(() => undefined);
      }
      await this.sink.dispose().catch(() => undefined);
    }
  }

  // ----- the sink and the ledger -----

  private async openSink(): Promise<void> {
    const { ledger: store, descriptor } = this.job;
    const key = this.job.ledgerKey ?? ledgerKeyOf(descriptor, this.sink.mode);
    const kept = await store?.get(key);
    const usable =
      kept && kept.version === 1 && kept.mode === this.sink.mode && kept.etag === this.etag;
    // Finished or made in this folder by an earlier run, whatever the object's ETag is now.
    const earlier = earlierRunOf(kept, this.sink.mode);
    const { resumable, failed } = await this.sink.open(
      this.plan.targets,
      this.ended.signal,
      earlier.finished,
      earlier.claimed,
    );
    // The package's names are now this download's: saved before the first write, so that a run
    // after a crash takes a file it finds at one of them (half written, or empty) as its own.
    this.claimed = true;
    this.ledger.changed();
    await this.ledger.flush();
    for (const target of this.plan.targets) {
      const { index, size } = target;
      const refused = failed?.get(index);
      if (refused) {
        this.failFile(index, refused.kind, refused.message);
        continue;
      }
      const entry = usable && resumable.has(index) ? kept.targets[String(index)] : undefined;
      if (entry?.done) {
        this.states[index] = 'done';
        this.outcomes.set(index, entry.done);
        this.resumedBytes += size;
        this.countChecked(checksOf(this.plan, descriptor, index), entry.done);
      } else if (entry?.ranges && this.sink.keepsUnclosedWrites) {
        const ranges = new RangeSet(entry.ranges);
        this.written.set(index, ranges);
        this.resumedBytes += ranges.size;
        this.sink.resumed?.(index, entry.ranges);
      }
    }
    // Empty files were created by `open` and receive no write: they are done as they are.
    for (const target of this.plan.targets) {
      if (target.size === 0 && this.states[target.index] === 'open') {
        this.states[target.index] = 'closing';
        this.afterClose(target.index);
      }
    }
    this.progress(true);
  }

  private writtenOf(index: number): RangeSet {
    let ranges = this.written.get(index);
    if (!ranges) this.written.set(index, (ranges = new RangeSet()));
    return ranges;
  }

  private snapshot(): DownloadLedger {
    const targets: Record<string, LedgerTarget> = {};
    for (const [index, done] of this.outcomes) targets[String(index)] = { done };
    if (this.sink.keepsUnclosedWrites) {
      for (const [index, ranges] of this.written) {
        if (this.states[index] === 'open' && ranges.size > 0) {
          targets[String(index)] = { ranges: ranges.toJSON() };
        }
      }
    }
    const { mode } = this.sink;
    return { version: 1, mode, etag: this.etag, ...(this.claimed && { claimed: true }), targets };
  }

  // ----- chunks -----

  /** Runs the chunks, up to `concurrency` at once (which the Aggressive algorithm moves). */
  private async runChunks(chunks: Chunk[]): Promise<void> {
    const queue = [...chunks];
    const running = new Set<Promise<void>>();
    let fatal: { error: unknown } | null = null;
    while (!fatal && (queue.length > 0 || running.size > 0)) {
      while (!fatal && running.size < this.pacing.concurrency && queue.length > 0) {
        const chunk = queue.shift()!;
        const work: Promise<void> = this.runChunk(chunk)
          .then(
            (again) => {
              // A retried chunk goes first: its bytes are what the files nearest done wait for.
              if (again) queue.unshift(chunk);
            },
            (error: unknown) => {
              fatal ??= { error };
              this.ended.abort(error);
            },
          )
          .finally(() => running.delete(work));
        running.add(work);
      }
      if (running.size === 0) break;
      await Promise.race([...running, this.pacing.changed()]);
    }
    await Promise.allSettled(running);
    if (fatal) throw (fatal as { error: unknown }).error;
  }

  /** One attempt of a chunk; resolves true when it should be tried again. */
  private async runChunk(chunk: Chunk): Promise<boolean> {
    const controller = new AbortController();
    const stop = () => controller.abort(this.ended.signal.reason);
    if (this.ended.signal.aborted) stop();
    this.ended.signal.addEventListener('abort', stop, { once: true });
    const now = this.clock.now();
    const attempt: ActiveAttempt = { chunk, controller, startedAt: now, lastByteAt: now };
    this.pacing.active.add(attempt);
    const startedAt = chunk.next;
    this.emit({
      type: 'chunk-started',
      at: now,
      chunk: chunk.number,
      from: chunk.next,
      end: chunk.end,
      attempt: chunk.failures + 1,
    });
    try {
      await fetchChunk(chunk, {
        http: this.job.http,
        url: this.job.descriptor.downloadUrl,
        etag: this.etag,
        size: this.job.descriptor.size,
        timeoutMs: this.options.xhrTimeoutMs,
        signal: controller.signal,
        onBytes: async (offset, bytes) => {
          this.fetchedBytes += bytes.length;
          attempt.lastByteAt = this.clock.now();
          this.reporter.fetched(this.fetchedBytes);
          await this.place(offset, bytes, controller.signal);
        },
      });
      this.emit({ type: 'chunk-finished', at: this.clock.now(), chunk: chunk.number });
      return false;
    } catch (error) {
      this.ended.signal.throwIfAborted();
      const stalled = controller.signal.aborted ? (controller.signal.reason as Error) : null;
      if (!(error instanceof ChunkAttemptError) && !stalled) throw error;
      // Failures count while they come without progress: a chunk cut short again and again
      // still gets there, one that gets nowhere stops the download.
      chunk.failures = chunk.next > startedAt ? 1 : chunk.failures + 1;
      const reason = stalled ? stalled.message : messageOf(error);
      if (chunk.failures > this.options.retries) {
        throw new DownloadFailedError(
          'network',
          `Part of the download failed ${chunk.failures} times in a row (${reason}).`,
          { cause: error },
        );
      }
      this.emit({
        type: 'chunk-retried',
        at: this.clock.now(),
        chunk: chunk.number,
        failures: chunk.failures,
        from: chunk.next,
        reason,
      });
      this.pacing.lowerOnError();
      await this.clock.sleep(backoff(chunk.failures), this.ended.signal);
      return true;
    } finally {
      this.pacing.active.delete(attempt);
      this.ended.signal.removeEventListener('abort', stop);
    }
  }

  /** Writes a run of the object's bytes where they belong; closes files it completes. */
  private async place(offset: number, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
    for (const placement of placementsOf(this.plan, offset, bytes.length)) {
      const { index } = placement;
      if (this.states[index] !== 'open') continue;
      const data = bytes.subarray(placement.from, placement.from + placement.length);
      try {
        await this.sink.write(index, placement.offset, data, signal);
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof DownloadSinkError && !error.fatal) {
          this.failFile(index, error.kind, error.message);
          continue;
        }
        throw error;
      }
      if (this.states[index] !== 'open') continue;
      const ranges = this.writtenOf(index);
      this.writtenBytes += ranges.add(placement.offset, placement.offset + placement.length);
      if (this.sink.keepsUnclosedWrites) this.ledger.changed();
      if (ranges.size === this.plan.targets[index]!.size) {
        this.states[index] = 'closing';
        await this.close(index);
      }
    }
    this.reporter.written(this.writtenBytes);
    this.progress(false);
  }

  private async close(index: number): Promise<void> {
    try {
      await this.sink.close(index);
    } catch (error) {
      if (error instanceof DownloadSinkError && !error.fatal) {
        this.failFile(index, error.kind, error.message);
        return;
      }
      throw error;
    }
    this.afterClose(index);
  }

  /** A closed target's files are checked beside the download. */
  private afterClose(index: number): void {
    const path = this.plan.targets[index]!.path;
    this.emit({ type: 'file-closed', at: this.clock.now(), index, path });
    const checks = checksOf(this.plan, this.job.descriptor, index);
    const held = this.sink.heldBytes?.(index) ?? null;
    this.checks.add(async () => {
      let mismatched = false;
      let unchecked = false;
      for (const check of checks) {
        const result = await runCheck(
          check,
          held ? () => Promise.resolve(held) : () => this.sink.read(index),
          this.job.hasher,
          this.ended.signal,
          // A hash taken as the target was written is the whole target's: an unpacked file's.
          this.sink.mode === 'unpack' ? this.sink.writtenXxh128?.bind(this.sink, index) : undefined,
        );
        if (result === 'mismatch') {
          mismatched = true;
          const message = `${check.path} is not what was sent: its xxh128 does not match the sender's.`;
          this.fileFailed(index, check.path, 'verification', message);
        } else {
          unchecked ||= result === 'unverified';
          this.countChecked([check], result);
          const checked = result === 'verified';
          this.emit({
            type: 'file-verified',
            at: this.clock.now(),
            index,
            path: check.path,
            checked,
          });
        }
      }
      if (mismatched) {
        // A `.tar` kept whole stays (its other members are good); an unpacked file goes.
        this.states[index] = 'failed';
        if (this.sink.mode === 'unpack') await this.sink.discard(index).catch(() => undefined);
      } else {
        this.states[index] = 'done';
        this.outcomes.set(index, unchecked ? 'unverified' : 'verified');
      }
      this.ledger.changed();
      this.progress(false);
    });
  }

  private countChecked(checks: FileCheck[], result: 'verified' | 'unverified'): void {
    for (const check of checks) {
      this.completedFiles++;
      if (result === 'verified' && check.expected !== null) this.verifiedFiles++;
      else this.unverified.push(check.path);
    }
  }

  private failFile(index: number, kind: DownloadErrorKind, message: string): void {
    if (this.states[index] === 'failed') return;
    this.states[index] = 'failed';
    this.fileFailed(index, this.plan.targets[index]!.path, kind, message);
    this.ledger.changed();
  }

  private fileFailed(index: number, path: string, kind: DownloadErrorKind, message: string): void {
    this.failed.push({ path, kind, message });
    this.emit({ type: 'file-failed', at: this.clock.now(), index, path, kind, message });
  }

  private async allChecked(): Promise<void> {
    await this.checks.drained();
    if (this.ended.signal.aborted) throw this.ended.signal.reason;
  }

  /** Waits for what is still running to see the end (chunks and checks). */
  private async settled(): Promise<void> {
    while (this.pacing.active.size > 0 || this.checks.busy) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  // ----- telling the caller -----

  private progress(force: boolean): void {
    const { resumedBytes, writtenBytes, completedFiles } = this;
    this.reporter.report({ resumedBytes, writtenBytes, completedFiles }, force);
  }

  private emit(event: DownloadEvent): void {
    this.job.onEvent?.(event);
  }
}
