/**
 * Transfer rate over recent samples: each sample is the running total of bytes at a moment;
 * the rate is the growth between the oldest and newest sample still inside the window. A short
 * window follows the line's speed as it changes; the sample cap keeps the cost flat however
 * often progress is reported.
 */
export class RateMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly options: { maxSamples: number; windowMs: number } = {
      maxSamples: 20,
      windowMs: 1000,
    },
  ) {}

  /** Records the running total of bytes moved so far. */
  sample(totalBytes: number): void {
    const at = this.now();
    const last = this.samples[this.samples.length - 1];
    // Samples of the same millisecond say nothing about speed; keep the newest total.
    if (last && last.at === at) last.bytes = totalBytes;
    else this.samples.push({ at, bytes: totalBytes });
    this.trim(at);
  }

  /** Bytes per second over the window; 0 when too little happened in it to tell. */
  rate(): number {
    this.trim(this.now());
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at === first.at) return 0;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** Forgets every sample (after a pause, the old speed means nothing). */
  reset(): void {
    this.samples = [];
  }

  private trim(at: number): void {
    const from = at - this.options.windowMs;
    while (this.samples.length > 0 && this.samples[0]!.at < from) this.samples.shift();
    while (this.samples.length > this.options.maxSamples) this.samples.shift();
  }
}

/** Seconds until `remainingBytes` are moved at `bytesPerSecond`; null when no rate is known. */
export function estimateSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (remainingBytes <= 0) return 0;
  if (!(bytesPerSecond > 0)) return null;
  return Math.ceil(remainingBytes / bytesPerSecond);
}

/**
 * A figure shown to the person that never goes down: a retried request starts its bytes again,
 * and a bar moving backward reads as lost work.
 */
export class NeverBackward {
  private highest = 0;

  /** The larger of `value` and every value seen before. */
  update(value: number): number {
    if (value > this.highest) this.highest = value;
    return this.highest;
  }

  get value(): number {
    return this.highest;
  }
}
