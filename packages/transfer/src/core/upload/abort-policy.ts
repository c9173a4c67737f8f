/**
 * When an upload stops trying: the recent answers (storage's and the API's) say the upload
 * cannot succeed (every grant refused, storage down), so retrying each file five times would
 * only hammer storage and keep the person waiting.
 */
export interface AbortThresholds {
  /** How often the answers are judged. */
  checkEveryMs: number;
  /** How far back answers count. */
  windowMs: number;
  /** Fewer answers than this in the window say too little to judge. */
  minResponses: number;
  /** Share of answers that are passing errors (or no answer at all) at which the upload stops. */
  transientShare: number;
  /** Share of answers refusing access at which the upload stops: grants will not start working. */
  criticalShare: number;
  /** Errors in the window at which the upload stops whatever their share. */
  maxErrors: number;
}

export const defaultAbortThresholds: AbortThresholds = {
  checkEveryMs: 2500,
  windowMs: 5 * 60_000,
  minResponses: 10,
  // Ten errors for every success.
  transientShare: 10 / 11,
  criticalShare: 0.01,
  maxErrors: 100,
};

/** Statuses that may pass on their own; 0 stands for a request that got no answer. */
const TRANSIENT = new Set([0, 400, 404, 429, 500, 502, 503, 504]);
/** Statuses that say the client is not allowed: retrying will not help. */
const CRITICAL = new Set([401, 403]);

/** Why the policy stopped an upload. */
export type AbortReason = 'transient' | 'critical' | 'too-many-errors';

export class AbortPolicy {
  private answers: { at: number; status: number }[] = [];
  private lastCheck: number;

  constructor(
    private readonly now: () => number,
    private readonly thresholds: AbortThresholds = defaultAbortThresholds,
  ) {
    this.lastCheck = now();
  }

  /** Records an answer's status (0 for none). */
  observe(status: number): void {
    this.answers.push({ at: this.now(), status });
  }

  /**
   * Judges the window, at most once per `checkEveryMs` (so a burst of answers is judged as a
   * whole, not on its first failure); the reason to stop, or null to go on.
   */
  check(): AbortReason | null {
    const at = this.now();
    if (at - this.lastCheck < this.thresholds.checkEveryMs) return null;
    this.lastCheck = at;
    const from = at - this.thresholds.windowMs;
    while (this.answers.length > 0 && this.answers[0]!.at < from) this.answers.shift();
    const total = this.answers.length;
    if (total < this.thresholds.minResponses) return null;
    let transient = 0;
    let critical = 0;
    for (const { status } of this.answers) {
      if (CRITICAL.has(status)) critical++;
      else if (TRANSIENT.has(status) || status >= 500) transient++;
    }
    if (critical / total >= this.thresholds.criticalShare) return 'critical';
    if (transient / total >= this.thresholds.transientShare) return 'transient';
    if (critical + transient >= this.thresholds.maxErrors) return 'too-many-errors';
    return null;
  }

  /** Starts afresh (the person pressed Retry: old failures should not stop the new attempt). */
  reset(): void {
    this.answers = [];
    this.lastCheck = this.now();
  }
}
