import { limits } from '../limits';
import type { Clock, HttpClient, HttpRequest, HttpResponse } from './http';
import { isIdempotent, type ApiRoute } from './route';

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

/** The first delay of the API's backoff; each retry doubles it. */
export const API_BACKOFF_BASE_MS = 500;

/**
 * The one retry rule of the API, read off the route: a call that may be repeated (a read, or a
 * write the server makes idempotent) is tried again up to 3 times on server faults, 429 and no
 * answer, and on 400 when the route says so; one that may not is sent once. Every call gives up
 * after 60 s but for the routes that say they may run long.
 */
export function routeRetryPolicy(
  route: ApiRoute,
  random = Math.random,
  timeoutMs: number = limits.apiTimeoutMs,
): RetryPolicy {
  const repeatable = isIdempotent(route);
  return {
    delays: repeatable ? backoffDelays(limits.apiRetries, API_BACKOFF_BASE_MS, random) : [],
    retryStatus: (status) =>
      status >= 500 || status === 429 || (status === 400 && route.retryOn400 === true),
    retryNoAnswer: true,
    timeoutMs: route.noTimeout ? 0 : timeoutMs,
  };
}

/** What one attempt ended with: an answer, or no answer (the error). */
export type AttemptOutcome = { response: HttpResponse } | { error: unknown };

export interface RetryingOptions {
  clock: Clock;
  signal?: AbortSignal;
  /** Told about every attempt that failed, retried or not (the abort policy counts them). */
  onFailedAttempt?: (outcome: AttemptOutcome, retryNo: number) => void | Promise<void>;
  /**
   * Waited for before each attempt is built, and released once it has its answer: an upload's
   * storage requests take one of its workers, so a request that waited for one is signed with
   * the grants as they are when it leaves, not as they were when it began to wait.
   */
  turn?: (signal?: AbortSignal) => Promise<() => void>;
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
  { clock, signal, onFailedAttempt, turn }: RetryingOptions,
): Promise<HttpResponse> {
  for (let retryNo = 0; ; retryNo++) {
    signal?.throwIfAborted();
    let outcome: AttemptOutcome;
    const release = await turn?.(signal);
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
    } finally {
      release?.();
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
