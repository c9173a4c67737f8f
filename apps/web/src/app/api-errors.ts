import { ApiError, isRecord, type ApiErrorCode } from '@filerunner/protocol';

// Reading a failed call, apart from the client that makes calls, so a page can tell what went
// wrong before the client has loaded (the login page loads it beside its first render).

/**
 * What to tell the person about a failed call: the server's first `detail` message, else its
 * first field message, else `fallback` (also for server faults and calls that got no answer).
 */
export function firstErrorMessage(error: unknown, fallback: string): string {
  const failed = asApiError(error);
  if (!failed || failed.status === 0 || failed.status >= 500) return fallback;
  return failed.serverMessage ?? fallback;
}

/**
 * The ApiError behind a failure: the client's own, or one rebuilt from the plain form a call
 * takes through the store (`{code, status, body}`), so both read the same way; else undefined.
 */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (!isRecord(error) || typeof error.status !== 'number' || !('body' in error)) return undefined;
  const code = (error.code as ApiErrorCode | undefined) ?? 'HTTP_ERROR';
  return new ApiError(code, error.status, error.body, `${code} ${error.status}`);
}
