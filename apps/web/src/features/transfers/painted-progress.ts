/**
 * How often a running transfer's numbers are painted at most. The engine tells progress per
 * 0.1 % of the bytes, which for a package of small files is every few files: each tell painted
 * would be a store update and a render of the queue, costing the page more than the files do.
 */
export const PROGRESS_PAINT_MS = 250;

/**
 * Passes on the latest of a stream of values at most once per `everyMs`: the first at once, then
 * the last one of each interval at its end, so what is painted is never older than the interval
 * and the final value is never lost (`flush` hands it over at once, e.g. before the outcome).
 */
export class PaintedProgress<T> {
  private latest: { value: T } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastAt = -Infinity;

  constructor(
    private readonly paint: (value: T) => void,
    private readonly everyMs = PROGRESS_PAINT_MS,
  ) {}

  push(value: T): void {
    this.latest = { value };
    if (this.timer) return;
    const wait = this.lastAt + this.everyMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Paints the value still waiting, if any, now. */
  flush(): void {
    this.stopTimer();
    const latest = this.latest;
    if (!latest) return;
    this.latest = null;
    this.lastAt = Date.now();
    this.paint(latest.value);
  }

  /** Drops the value still waiting (the transfer was cancelled: its row may be gone). */
  cancel(): void {
    this.stopTimer();
    this.latest = null;
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
