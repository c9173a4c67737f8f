import {
  CLIENT_VERSION_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  isIdempotent,
  limits,
  methodOf,
  pathOf,
  type ApiRoute,
  type FieldErrors,
  type RouteArgs,
  type RouteResponse,
} from '@filerunner/protocol';

/** Why a call failed: the server answered with an error status, took too long, or never answered. */
export type ApiErrorCode = 'HTTP_ERROR' | 'TIMEOUT' | 'NETWORK_ERROR';

/** A failed API call. `status` is 0 when there was no HTTP answer; `body` is the parsed answer. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: ApiErrorCode,
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }

  /** The `detail` string of a `{"detail": ...}` answer, if there is one. */
  get detail(): string | undefined {
    const detail = isRecord(this.body) ? this.body.detail : undefined;
    return typeof detail === 'string' ? detail : undefined;
  }

  /**
   * Every message of the answer's `detail`, whether it is one string or a list (the external-users
   * and remove-user calls answer `{"detail": ["message", ...]}`).
   */
  get details(): string[] {
    const detail = isRecord(this.body) ? this.body.detail : undefined;
    if (typeof detail === 'string') return [detail];
    return Array.isArray(detail) ? detail.filter((m): m is string => typeof m === 'string') : [];
  }

  /** The `{"field": ["message"]}` part of the answer (also when nested under `errors`). */
  get fieldErrors(): FieldErrors {
    const source = isRecord(this.body) && isRecord(this.body.errors) ? this.body.errors : this.body;
    const errors: FieldErrors = {};
    if (!isRecord(source)) return errors;
    for (const [field, value] of Object.entries(source)) {
      if (Array.isArray(value)) errors[field] = value.filter((m) => typeof m === 'string');
      else if (typeof value === 'string' && field !== 'detail') errors[field] = [value];
    }
    return errors;
  }
}

/**
 * What to tell the person about a failed call: the server's first `detail` message, else its
 * first field message, else `fallback` (also for server faults and calls that got no answer).
 */
export function firstErrorMessage(error: unknown, fallback: string): string {
  const failed = asApiError(error);
  if (!failed || failed.status === 0 || failed.status >= 500) return fallback;
  return failed.details[0] ?? Object.values(failed.fieldErrors).flat()[0] ?? fallback;
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

export interface ApiClientOptions {
  /** Sent as `X-Client-Version` on every call; the server refuses mutating calls without it. */
  clientVersion: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retries?: number;
  /** First backoff delay; each retry doubles it and adds up to one base of random jitter. */
  backoffBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Called with the session expiry (epoch ms, on this machine's clock) of every answer that has one. */
  onSessionExpires?: (expiresAtMs: number) => void;
}

export interface ApiClient {
  /**
   * Makes one call of the route table: its path filled from `params`, `body` sent as JSON (or a
   * FormData as multipart). Only calls the table marks idempotent are repeated after a server
   * fault; a call with an idempotency key sends the same key on every attempt.
   */
  call<R extends ApiRoute>(route: R, ...rest: CallRest<R>): Promise<RouteResponse<R>>;
}

/** The arguments after the route: none needed for a bare call, then an optional abort signal. */
type CallRest<R extends ApiRoute> = [RouteArgs<R>] extends [void]
  ? [args?: void, signal?: AbortSignal]
  : [args: RouteArgs<R>, signal?: AbortSignal];

/** Whether an answer with this status is worth another attempt of an idempotent call. */
export function isRetryable(status: number, route: ApiRoute): boolean {
  if (status >= 500 || status === 429) return true;
  return status === 400 && route.awaitsStorage === true;
}

/**
 * When the session ends (epoch ms, on this machine's clock) by an answer's `Expires` header;
 * null when it has none. Other clients of the API (the upload engine) report it the same way.
 */
export function sessionExpiryOf(header: (name: string) => string | null, now: number) {
  const expires = Date.parse(header('Expires') ?? '');
  if (Number.isNaN(expires)) return null;
  // Measured against the server's own Date header so a skewed local clock does not end the
  // session early or late.
  const serverNow = Date.parse(header('Date') ?? '');
  return Number.isNaN(serverNow) ? expires : now + (expires - serverNow);
}

/** The FileRunner API over fetch: version header, cookies, timeout, retries, session expiry. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const {
    clientVersion,
    baseUrl = '/api',
    timeoutMs = limits.apiTimeoutMs,
    retries = limits.apiRetries,
    backoffBaseMs = 500,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random = Math.random,
    now = Date.now,
    onSessionExpires,
  } = options;
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));

  function reportExpiry(headers: Headers): void {
    const expiresAt = sessionExpiryOf((name) => headers.get(name), now());
    if (onSessionExpires && expiresAt !== null) onSessionExpires(expiresAt);
  }

  async function attempt(url: string, init: RequestInit, timed: boolean, signal?: AbortSignal) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort);
    let timedOut = false;
    const timer = timed
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
    try {
      const response = await fetchImpl(url, { ...init, signal: controller.signal });
      const body = await readBody(response);
      return { response, body };
    } catch (error) {
      if (timedOut) throw new ApiError('TIMEOUT', 0, undefined, `Request timed out: ${url}`);
      if (signal?.aborted) throw error;
      throw new ApiError('NETWORK_ERROR', 0, undefined, `Network error: ${url}`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function call<R extends ApiRoute>(
    route: R,
    ...[args, signal]: CallRest<R>
  ): Promise<RouteResponse<R>> {
    const { params, query, body } = (args ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const method = methodOf(route);
    const url = buildUrl(baseUrl, pathOf(route, params), query);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      [CLIENT_VERSION_HEADER]: clientVersion,
    };
    if (route.idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = crypto.randomUUID();
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const init: RequestInit = { method, headers, body: payload, credentials: 'include' };
    const mayRepeat = isIdempotent(route);

    for (let attemptNo = 0; ; attemptNo++) {
      const { response, body: answer } = await attempt(url, init, !route.awaitsStorage, signal);
      reportExpiry(response.headers);
      if (response.ok) return answer as RouteResponse<R>;
      if (mayRepeat && attemptNo < retries && isRetryable(response.status, route)) {
        await sleep(backoffBaseMs * 2 ** attemptNo + random() * backoffBaseMs);
        continue;
      }
      throw new ApiError(
        'HTTP_ERROR',
        response.status,
        answer,
        `${method} ${url}: ${response.status}`,
      );
    }
  }

  return { call };
}

function buildUrl(baseUrl: string, path: string, query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if (!(response.headers.get('Content-Type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
