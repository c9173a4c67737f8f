import type { Clock } from '../ports';

interface Sleeper {
  until: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * A `Clock` for tests: time moves only when a sleep passes or the test calls `advance`.
 *
 * While `instant` (the default) every sleep passes at once and moves time on by its length, so
 * retry delays cost nothing and the abort policy still sees time go by. `holdSleeps()` keeps
 * sleeps waiting until `advance` reaches their end, for a test that acts during a delay. Every
 * sleep the engine asks for is listed in `slept`, in order; an aborted sleep rejects with the
 * signal's reason, as the system clock's does.
 */
export class ManualClock implements Clock {
  /** The length of every `sleep` asked for, in the order asked (a test's own waits excluded). */
  readonly slept: number[] = [];
  private time: number;
  private instant = true;
  private readonly sleepers = new Set<Sleeper>();
  private readonly sleepWatchers: ((ms: number) => void)[] = [];

  /** Starts at `start` (epoch ms): grants that expire in 2030 are then good for years. */
  constructor(start = Date.UTC(2024, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.slept.push(ms);
    for (const watcher of this.sleepWatchers.splice(0)) watcher(ms);
    return this.pass(ms, signal);
  }

  /**
   * Waits `ms` of this clock's time like `sleep` without being listed in `slept`: what a test
   * double (a slow answer) spends, as opposed to what the engine chose to wait.
   */
  pass(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.instant || ms <= 0) {
      this.time += Math.max(0, ms);
      // A turn of the event loop, as a real timer would take, so that loops of retries yield.
      return new Promise((resolve) => setTimeout(resolve, 0));
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        until: this.time + ms,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.sleepers.delete(sleeper);
          reject(signal!.reason);
        },
      };
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.onAbort, { once: true });
    });
  }

  /** From now on sleeps wait for `advance` (or `release`). */
  holdSleeps(): void {
    this.instant = false;
  }

  /** Sleeps pass at once again, and those waiting now are woken. */
  release(): void {
    this.instant = true;
    const last = Math.max(this.time, ...[...this.sleepers].map((s) => s.until));
    this.advance(last - this.time);
  }

  /** Moves time on by `ms`, waking every sleep that has come to its end. */
  advance(ms: number): void {
    this.time += ms;
    for (const sleeper of [...this.sleepers]) {
      if (sleeper.until > this.time) continue;
      this.sleepers.delete(sleeper);
      sleeper.signal?.removeEventListener('abort', sleeper.onAbort);
      sleeper.resolve();
    }
  }

  /** Sleeps waiting for time to move (only while sleeps are held). */
  get waiting(): number {
    return this.sleepers.size;
  }

  /** Resolves with the length of the next sleep the engine asks for. */
  nextSleep(): Promise<number> {
    return new Promise((resolve) => this.sleepWatchers.push(resolve));
  }
}
