import type { Clock, HttpClient, HttpRequest, HttpResponse } from './ports';

/**
 * When a request is tried again: one delay per retry (so `delays.length` is the number of
 * retries), which answers are worth another attempt, and how long one attempt may wait.
 */
export interface RetryPolicy {
  readonly delays: readonly number[];
  /** Whether an answer with this status is worth another attempt. */
  retryStatus(status: number): boolean;
  /** Whether a request that got no answer (a network failure or a timeout) is worth another attempt. */
  readonly retryNoAnswer: boolean;
  /** Milliseconds one attempt may take; 0 waits forever. */
  readonly timeoutMs: number;
}

/**
 * Exponential backoff with jitter: `base * 2^n` plus up to one `base` at random, so clients
 * that failed together do not come back together.
 */
export function backoffDelays(retries: number, baseMs: number, random = Math.random): number[] {
  return Array.from({ length: retries }, (_, n) => baseMs * 2 ** n + Math.floor(random() * baseMs));
}

/** The API's retries and timeout. */
export const API_RETRIES = 3;
export const API_TIMEOUT_MS = 60_000;
/** How often one file is sent again before it counts as failed. */
export const FILE_RETRIES = 5;

/**
 * The policy of an API call. Server faults and 429 are retried; so is a 400 from the calls that
 * report uploaded objects (storage's listing may lag behind the upload), and those have no
 * timeout because the server checks storage before it answers.
 */
export function apiRetryPolicy(
  route: { awaitsStorage?: boolean },
  random = Math.random,
): RetryPolicy {
  const awaitsStorage = route.awaitsStorage === true;
  return {
    delays: backoffDelays(API_RETRIES, 500, random),
    retryStatus: (status) => status >= 500 || status === 429 || (awaitsStorage && status === 400),
    retryNoAnswer: true,
    timeoutMs: awaitsStorage ? 0 : API_TIMEOUT_MS,
  };
}

/**
 * The policy of one storage request (a FormPost, a slab or segment PUT): every failure is worth
 * another attempt, since storage errors are mostly passing (a busy proxy, a dropped connection,
 * a grant renewed in between), and the abort policy stops an upload that fails systematically.
 * No timeout: a large segment on a slow line takes as long as it takes.
 */
export function storageRetryPolicy(random = Math.random): RetryPolicy {
  return {
    delays: backoffDelays(FILE_RETRIES, 1000, random),
    retryStatus: (status) => status >= 400,
    retryNoAnswer: true,
    timeoutMs: 0,
  };
}

/** What one attempt ended with: an answer, or no answer (the error). */
export type AttemptOutcome = { response: HttpResponse } | { error: unknown };

export interface RetryingOptions {
  clock: Clock;
  signal?: AbortSignal;
  /** Told about every attempt that failed, retried or not (the abort policy counts them). */
  onFailedAttempt?: (outcome: AttemptOutcome, retryNo: number) => void | Promise<void>;
}

/**
 * Sends a request under a policy: the answer of the first attempt that succeeds or is not worth
 * retrying, or the last answer once the retries are spent. Rejects when the last attempt got no
 * answer, and at once when `signal` aborts. `build` makes each attempt's request, so a retry can
 * pick up a renewed grant.
 */
export async function requestWithRetries(
  http: HttpClient,
  build: () => HttpRequest | Promise<HttpRequest>,
  policy: RetryPolicy,
  { clock, signal, onFailedAttempt }: RetryingOptions,
): Promise<HttpResponse> {
  for (let retryNo = 0; ; retryNo++) {
    signal?.throwIfAborted();
    let outcome: AttemptOutcome;
    try {
      const request = await build();
      const response = await http.request({
        ...request,
        signal,
        ...(policy.timeoutMs > 0 ? { timeoutMs: policy.timeoutMs } : {}),
      });
      if (response.status < 400) return response;
      outcome = { response };
    } catch (error) {
      signal?.throwIfAborted();
      outcome = { error };
    }
    await onFailedAttempt?.(outcome, retryNo);
    const retryable =
      'response' in outcome ? policy.retryStatus(outcome.response.status) : policy.retryNoAnswer;
    if (!retryable || retryNo >= policy.delays.length) {
      if ('response' in outcome) return outcome.response;
      throw outcome.error;
    }
    await clock.sleep(policy.delays[retryNo]!, signal);
  }
}
