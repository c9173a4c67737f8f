import { packageLimits } from '@filerunner/protocol';
import { ApiError } from '@filerunner/protocol';
import type { PackageApi } from './package-api';

/** One file of an `updatefiles` report. */
export type FileReportRow = Parameters<PackageApi['updateFiles']>[1][number];

interface Waiting {
  rows: FileReportRow[];
  signal: AbortSignal;
  done: () => void;
  failed: (error: unknown) => void;
}

/** Report calls under way at once: one being answered while the next one gathers batches. */
const CALLS_AT_ONCE = 2;

/**
 * Reports of the FormPost batches, joined into few `updatefiles` calls. A batch of 10 small
 * files is stored in one request, and a report call of its own would cost as much as that
 * request again (and a round trip before the next batch); so while calls are under way, the
 * batches stored meanwhile wait and go together in the next call, up to the call's limit of
 * files. A joint call that is refused is made again batch by batch, so that a bad batch fails
 * alone, as it would have on its own.
 */
export class FileReports {
  private readonly waiting: Waiting[] = [];
  private calls = 0;
  /** Signals listened to, once each (see `Slots`). */
  private readonly watched = new WeakSet<AbortSignal>();

  constructor(
    private readonly send: (rows: FileReportRow[], signal: AbortSignal) => Promise<unknown>,
    private readonly maxFiles: number = packageLimits.maxBatchFiles,
  ) {}

  /** Reports one batch's files; resolves once the server recorded them. */
  report(rows: FileReportRow[], signal: AbortSignal): Promise<void> {
    return new Promise<void>((done, failed) => {
      if (signal.aborted) {
        failed(signal.reason);
        return;
      }
      if (!this.watched.has(signal)) {
        this.watched.add(signal);
        signal.addEventListener('abort', () => this.dropStopped(), { once: true });
      }
      this.waiting.push({ rows, signal, done, failed });
      this.next();
    });
  }

  /** Batches still waiting when their upload stops are left out of the next call. */
  private dropStopped() {
    for (const entry of [...this.waiting]) {
      if (!entry.signal.aborted) continue;
      this.waiting.splice(this.waiting.indexOf(entry), 1);
      entry.failed(entry.signal.reason);
    }
  }

  private next() {
    while (this.calls < CALLS_AT_ONCE && this.waiting.length > 0) {
      const joined: Waiting[] = [];
      let files = 0;
      while (
        this.waiting[0] &&
        (joined.length === 0 || files + this.waiting[0].rows.length <= this.maxFiles)
      ) {
        const entry = this.waiting.shift()!;
        joined.push(entry);
        files += entry.rows.length;
      }
      this.calls++;
      void this.call(joined).finally(() => {
        this.calls--;
        this.next();
      });
    }
  }

  private async call(joined: Waiting[]) {
    const signal = joined[0]!.signal;
    try {
      await this.send(
        joined.flatMap((entry) => entry.rows),
        signal,
      );
      for (const entry of joined) entry.done();
    } catch (error) {
      const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
      if (!refused || joined.length === 1 || signal.aborted) {
        for (const entry of joined) entry.failed(error);
        return;
      }
      await Promise.all(
        joined.map((entry) => this.send(entry.rows, entry.signal).then(entry.done, entry.failed)),
      );
    }
  }
}
