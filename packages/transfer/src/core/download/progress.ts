import { estimateSeconds, NeverBackward, RateMeter } from '../meters';
import type { Clock } from '../ports';
import {
  EXTRACT_RATE_WINDOW_MS,
  PROGRESS_STEP,
  PROGRESS_THROTTLE_MS,
  RATE_SAMPLES,
  RATE_WINDOW_MS,
} from './options';
import type { DownloadProgress } from './ports';

/** Where a download stands, as the engine counts it. */
export interface DownloadCounts {
  readonly resumedBytes: number;
  /** Bytes written to the sink by this run (files' bytes; framing is nobody's). */
  readonly writtenBytes: number;
  readonly completedFiles: number;
}

/**
 * The rates and the progress told to the caller: at most every second or per 0.1 % of the
 * total while bytes move, the bytes never going backward (a retried range is written again).
 */
export class ProgressReporter {
  private readonly fetchRate: RateMeter;
  private readonly writeRate: RateMeter;
  private readonly shown = new NeverBackward();
  private last = { at: -Infinity, bytes: -1 };

  constructor(
    private readonly clock: Clock,
    private readonly totalBytes: number,
    private readonly totalFiles: number,
    private readonly onProgress: ((progress: DownloadProgress) => void) | undefined,
  ) {
    const now = () => clock.now();
    this.fetchRate = new RateMeter(now, { maxSamples: RATE_SAMPLES, windowMs: RATE_WINDOW_MS });
    this.writeRate = new RateMeter(now, {
      maxSamples: RATE_SAMPLES,
      windowMs: EXTRACT_RATE_WINDOW_MS,
    });
  }

  /** Bytes fetched over the network so far (the download rate's samples). */
  fetched(totalBytes: number): void {
    this.fetchRate.sample(totalBytes);
  }

  /** Bytes written to the sink so far (the extract rate's samples). */
  written(totalBytes: number): void {
    this.writeRate.sample(totalBytes);
  }

  get rate(): number {
    return this.fetchRate.rate();
  }

  get extractRate(): number {
    return this.writeRate.rate();
  }

  /** Milliseconds since progress was last told. */
  get quietFor(): number {
    return this.clock.now() - this.last.at;
  }

  /** Tells the progress when it is due (or `force`d: the start, the end, the heartbeat). */
  report(counts: DownloadCounts, force: boolean): void {
    const now = this.clock.now();
    const received = this.shown.update(counts.resumedBytes + counts.writtenBytes);
    const step = Math.max(1, this.totalBytes * PROGRESS_STEP);
    const due =
      force || now - this.last.at >= PROGRESS_THROTTLE_MS || received - this.last.bytes >= step;
    if (!due || !this.onProgress) return;
    this.last = { at: now, bytes: received };
    const rate = this.rate;
    this.onProgress({
      totalBytes: this.totalBytes,
      receivedBytes: received,
      resumedBytes: counts.resumedBytes,
      totalFiles: this.totalFiles,
      completedFiles: counts.completedFiles,
      rate,
      extractRate: this.extractRate,
      estimated: estimateSeconds(this.totalBytes - received, rate),
    });
  }
}
