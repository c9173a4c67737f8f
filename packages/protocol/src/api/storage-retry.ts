import { backoffDelays, type RetryPolicy } from './retry';

// Apart from the API's rule in retry.ts, so the pages that never upload do not load it.

/** How often one file is sent again before it counts as failed. */
export const FILE_RETRIES = 5;

/**
 * The policy of one storage request of an upload (a FormPost, a slab or segment PUT): every
 * failure is worth another attempt, since storage errors are mostly passing (a busy proxy, a
 * dropped connection, a grant renewed in between), and the engine's abort policy stops an upload
 * that fails systematically. No timeout: a large segment on a slow line takes as long as it takes.
 */
export function storageRetryPolicy(random = Math.random): RetryPolicy {
  return {
    delays: backoffDelays(FILE_RETRIES, 1000, random),
    retryStatus: (status) => status >= 400,
    retryNoAnswer: true,
    timeoutMs: 0,
  };
}
