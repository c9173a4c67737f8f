import type { HttpMethod as RouteMethod } from './route';

/**
 * The HTTP client every caller of the API (and the transfer engine's storage requests) is written
 * against: the web app, the transfer engine in a page and in Node, the CLI, the tests and benches
 * each pass the platform's client (XHR or fetch in a browser, fetch and node:http in Node) and
 * share everything above it, the route client and its retry rule among them.
 */

export type RequestMethod = RouteMethod | 'PUT' | 'DELETE';

/** A multipart form body: fields in order, then files (Swift's FormPost needs files last). */
export interface FormBody {
  fields: [name: string, value: string][];
  files: { field: string; filename: string; content: Blob }[];
}

export interface HttpRequest {
  method: RequestMethod;
  url: string;
  headers?: Record<string, string>;
  /** Bytes (a Blob), a form, or a value sent as JSON. */
  body?: Blob | FormBody | { json: unknown };
  signal?: AbortSignal;
  /** Called as the request body leaves, with the bytes sent so far (never decreasing). */
  onUploadProgress?: (sentBytes: number) => void;
  /** No answer within this many milliseconds rejects with a `NoAnswerError` 'TIMEOUT'; 0 or absent waits forever. */
  timeoutMs?: number;
  /**
   * The caller reads the answer with `body()` as it arrives (a download's ranged chunk), so the
   * client must not read it whole first; the timeout then covers the answer's headers only.
   */
  stream?: boolean;
}

export interface HttpResponse {
  status: number;
  /** A header of the answer, case-insensitive; null when absent. */
  header(name: string): string | null;
  text(): Promise<string>;
  /**
   * The answer's bytes as they arrive, for downloads that write each range where it belongs
   * without holding it whole. Only clients that can stream have it (fetch in a page and in
   * Node; XHR cannot), and a response is read once: by `text()` or by `body()`.
   */
  body?(): ReadableStream<Uint8Array>;
}

/**
 * Sends one request. Any HTTP status resolves (callers judge statuses); a network failure or a
 * timeout rejects with a `NoAnswerError`, an abort with the signal's reason.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** Why a request got no answer: the connection failed, or the answer took too long. */
export type NoAnswerCode = 'NETWORK_ERROR' | 'TIMEOUT';

/**
 * A request that got no HTTP answer. The message names the method and the address without its
 * query, since a signed storage URL carries its signature there.
 */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
  constructor(
    readonly code: NoAnswerCode,
    method: string,
    url: string,
    options?: { cause?: unknown },
  ) {
    const what = code === 'TIMEOUT' ? 'timed out' : 'network error';
    super(`${method} ${withoutQuery(url)}: ${what}`, options);
  }
}

/** An address without its query and fragment (where signatures and link keys travel). */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** Time, so tests can run retry delays (and the engine's timers) instantly. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The platform clock: wall time and timers. Works unchanged in browsers and Node. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
