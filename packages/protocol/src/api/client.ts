import { CLIENT_VERSION_HEADER, IDEMPOTENCY_KEY_HEADER, limits } from '../limits';
import { ApiError } from './api-error';
import {
  NoAnswerError,
  systemClock,
  type Clock,
  type FormBody,
  type HttpClient,
  type HttpResponse,
} from './http';
import { requestWithRetries, routeRetryPolicy } from './retry';
import { methodOf, pathOf, type ApiRoute, type RouteArgs, type RouteResponse } from './route';

export interface RouteClientOptions {
  /** The platform's client: XHR or fetch in a page, fetch and node:http in Node. */
  http: HttpClient;
  /** The API's base: `/api` in the page, `https://host/api` elsewhere; paths come from the table. */
  baseUrl: string;
  /** Sent as `X-Client-Version`; the server refuses a session's mutating calls without it. */
  clientVersion?: string;
  /** Sent with every call besides: `Authorization: Api-Key …`, a user agent. */
  headers?: Record<string, string>;
  /** Waits between attempts (tests pass one that returns at once). */
  clock?: Clock;
  random?: () => number;
  /** How long a call may wait for its answer, but for the routes without a timeout. */
  timeoutMs?: number;
  /**
   * Shown every attempt's answer, good or bad, retried or not, and `null` for an attempt that
   * got none: the session countdown reads `Expires` here, the upload's abort policy counts faults.
   */
  onAnswer?: (answer: HttpResponse | null) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * For a route that takes one: the key every attempt carries, so a retry answers the first
   * result; a caller that keeps it across runs (the CLI, after a Ctrl-C) gets the same package.
   * A fresh one per call otherwise.
   */
  idempotencyKey?: string;
}

/** The arguments after the route: none needed for a bare call, then the call's options. */
export type CallRest<R extends ApiRoute> = [RouteArgs<R>] extends [void]
  ? [args?: void, options?: CallOptions]
  : [args: RouteArgs<R>, options?: CallOptions];

export interface RouteClient {
  readonly baseUrl: string;
  /**
   * Makes one call of the route table: its path filled from `params`, `query` in the address,
   * `body` sent as JSON (or a form as multipart), retried by the route's rule
   * (`routeRetryPolicy`). Resolves to the route's answer; rejects with an `ApiError`, or with the
   * signal's reason when aborted.
   */
  call<R extends ApiRoute>(route: R, ...rest: CallRest<R>): Promise<RouteResponse<R>>;
}

/** The one way to call the FileRunner API, over whichever `HttpClient` the platform has. */
export function createRouteClient(options: RouteClientOptions): RouteClient {
  const {
    http,
    baseUrl,
    clock = systemClock,
    random = Math.random,
    timeoutMs = limits.apiTimeoutMs,
    onAnswer,
  } = options;
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(options.clientVersion ? { [CLIENT_VERSION_HEADER]: options.clientVersion } : {}),
    ...options.headers,
  };

  async function call<R extends ApiRoute>(
    route: R,
    ...[args, callOptions = {}]: CallRest<R>
  ): Promise<RouteResponse<R>> {
    const { params, query, body } = (args ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const { signal } = callOptions;
    const method = methodOf(route);
    const url = `${baseUrl}${pathOf(route, params)}${searchOf(query)}`;
    const callHeaders = route.idempotencyKey
      ? {
          ...headers,
          [IDEMPOTENCY_KEY_HEADER]: callOptions.idempotencyKey ?? newIdempotencyKey(random),
        }
      : headers;
    // In the web app's bundles `form` is `true` rather than its schema (build/browser-protocol.ts).
    const sent = body === undefined ? undefined : route.form ? (body as FormBody) : { json: body };
    const name = `${method} ${route.path}`;

    const response = await requestWithRetries(
      http,
      () => ({ method, url, headers: callHeaders, ...(sent ? { body: sent } : {}) }),
      routeRetryPolicy(route, random, timeoutMs),
      {
        clock,
        signal,
        onFailedAttempt: (outcome) => onAnswer?.('response' in outcome ? outcome.response : null),
      },
    ).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      const code = error instanceof NoAnswerError ? error.code : 'NETWORK_ERROR';
      throw new ApiError(code, 0, undefined, name);
    });
    // Failed attempts were shown as they happened.
    if (response.status < 400) onAnswer?.(response);
    const answer = await readAnswer(response, method);
    if (response.status >= 400) throw new ApiError('HTTP_ERROR', response.status, answer, name);
    return answer as RouteResponse<R>;
  }

  return { baseUrl, call };
}

/**
 * When the session ends (epoch ms, on this machine's clock) by an answer's `Expires` header;
 * null when it has none. Measured against the server's own `Date` header, so a skewed local
 * clock does not end the session early or late.
 */
export function sessionExpiryOf(answer: Pick<HttpResponse, 'header'>, now: number): number | null {
  const expires = Date.parse(answer.header('Expires') ?? '');
  if (Number.isNaN(expires)) return null;
  const serverNow = Date.parse(answer.header('Date') ?? '');
  return Number.isNaN(serverNow) ? expires : now + (expires - serverNow);
}

/** 128 random bits in hex: an `Idempotency-Key`. */
export function newIdempotencyKey(random: () => number = Math.random): string {
  return Array.from({ length: 4 }, () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
}

function searchOf(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The answer's body: JSON parsed, else the text (a proxy's error page), undefined when empty. */
async function readAnswer(response: HttpResponse, method: string): Promise<unknown> {
  if (response.status === 204 || method === 'HEAD') return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
