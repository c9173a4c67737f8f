import type { Clock } from '../ports';
import type { DownloadEvent } from './events';
import { MAX_CONCURRENT_CHUNKS, STALL_CHECK_INTERVAL_MS, STALL_TIMEOUT_MS } from './options';
import type { Chunk } from './plan';
import type { DownloadOptions } from './ports';
import type { ProgressReporter } from './progress';

/** A chunk's attempt in flight, as the stall check sees it. */
export interface ActiveAttempt {
  readonly chunk: Chunk;
  readonly controller: AbortController;
  readonly startedAt: number;
  lastByteAt: number;
}

/**
 * How many chunks run at once, and the clock's checks on them: every 10 s a chunk without a byte
 * for 180 s, or not done within the worker timeout, is aborted (and retried by its runner); at
 * each rate check the Aggressive algorithm adds a chunk while the rate still grows, and it takes
 * one away on each error. Conservative keeps the configured count.
 */
export class Pacing {
  concurrency: number;
  readonly active = new Set<ActiveAttempt>();
  private lastRateCheck: { at: number; rate: number };
  private wake: () => void = () => undefined;

  constructor(
    private readonly options: DownloadOptions,
    private readonly clock: Clock,
    private readonly reporter: ProgressReporter,
    private readonly emit: (event: DownloadEvent) => void,
  ) {
    this.concurrency = Math.max(1, Math.min(MAX_CONCURRENT_CHUNKS, options.concurrentChunks));
    this.lastRateCheck = { at: clock.now(), rate: 0 };
  }

  /** Resolves when the concurrency changes (more chunks may start). */
  changed(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** The checks, until `signal` aborts; `heartbeat` is called when progress was quiet too long. */
  async run(signal: AbortSignal, heartbeat: () => void): Promise<void> {
    try {
      for (;;) {
        await this.clock.sleep(STALL_CHECK_INTERVAL_MS, signal);
        const now = this.clock.now();
        for (const attempt of this.active) this.checkStall(attempt, now);
        if (now - this.lastRateCheck.at >= this.options.rateCheckIntervalMs) this.rateCheck(now);
        if (this.reporter.quietFor >= this.options.progressIntervalMs) heartbeat();
      }
    } catch {
      // The run ended.
    }
  }

  lowerOnError(): void {
    if (this.options.algorithm === 'aggressive' && this.concurrency > 1) {
      this.set(this.concurrency - 1, 'error');
    }
  }

  private checkStall(attempt: ActiveAttempt, now: number): void {
    const why =
      now - attempt.lastByteAt >= STALL_TIMEOUT_MS
        ? 'no-progress'
        : now - attempt.startedAt >= this.options.workerTimeoutMs
          ? 'worker-timeout'
          : null;
    if (!why || attempt.controller.signal.aborted) return;
    this.emit({ type: 'chunk-stalled', at: now, chunk: attempt.chunk.number, why });
    attempt.controller.abort(
      new Error(why === 'no-progress' ? 'no byte for 180 s' : 'not done in time'),
    );
  }

  private rateCheck(now: number): void {
    const { rate } = this.reporter;
    this.emit({ type: 'rate', at: now, rate, extractRate: this.reporter.extractRate });
    if (
      this.options.algorithm === 'aggressive' &&
      rate > this.lastRateCheck.rate * 1.05 &&
      this.concurrency < MAX_CONCURRENT_CHUNKS
    ) {
      this.set(this.concurrency + 1, 'rate-grows');
    }
    this.lastRateCheck = { at: now, rate };
  }

  private set(to: number, why: 'rate-grows' | 'error'): void {
    this.emit({ type: 'concurrency', at: this.clock.now(), from: this.concurrency, to, why });
    this.concurrency = to;
    this.wake();
  }
}
