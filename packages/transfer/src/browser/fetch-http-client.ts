import { NoAnswerError } from '@filerunner/protocol';
import type { HttpClient, HttpRequest, HttpResponse } from '../core/ports';
import { encodedBody } from './form-data';

export interface FetchHttpClientOptions {
  /**
   * Whether cross-origin requests carry cookies (fetch's `credentials: 'include'`). A grant's URL
   * is its own credential, and storage behind a wildcard CORS rule refuses credentialed
   * requests, so the default sends cookies to the page's own origin only.
   */
  withCredentials?: boolean;
  /** The fetch to call; tests and workers may give their own. */
  fetch?: typeof fetch;
}

/**
 * The download engine's HTTP client, over fetch: its answers have `body()`, the bytes as they
 * arrive, so each ranged chunk is written where it belongs while it streams and the page never
 * holds a whole chunk. (XHR cannot stream a body; the upload engine keeps XHR for its upload
 * progress.) The timeout is the time to the answer's headers: a chunk that is answered and then
 * streams slowly is the engine's stall check to judge, not this client's.
 */
export class FetchHttpClient implements HttpClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: FetchHttpClientOptions = {}) {
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const { method, url, headers = {}, signal, timeoutMs } = request;
    signal?.throwIfAborted();
    const named = nameOnly(url);
    const controller = new AbortController();
    // Stays attached while the body streams: cancelling the download stops the read too.
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
    let response: Response;
    try {
      const sent = encodedBody(request.body);
      const hasContentType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
      response = await this.fetch(url, {
        method,
        headers:
          sent.contentType && !hasContentType
            ? { 'content-type': sent.contentType, ...headers }
            : headers,
        body: sent.body ?? null,
        credentials: this.options.withCredentials ? 'include' : 'same-origin',
        signal: controller.signal,
      });
    } catch (error) {
      signal?.removeEventListener('abort', onAbort);
      signal?.throwIfAborted();
      throw new NoAnswerError(timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', method, named, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
    const failed = (error: unknown) => {
      if (signal?.aborted) return signal.reason as unknown;
      return new NoAnswerError('NETWORK_ERROR', method, named, { cause: error });
    };
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      text: async () => {
        try {
          return await response.text();
        } catch (error) {
          throw failed(error);
        } finally {
          signal?.removeEventListener('abort', onAbort);
        }
      },
      body: () =>
        streamOf(response.body, failed, () => signal?.removeEventListener('abort', onAbort)),
    };
  }
}

/**
 * The answer's bytes as fetch reads them, with a connection cut mid-body reported as the
 * NoAnswerError a cut before the headers is, so the engine retries both the same way.
 */
function streamOf(
  body: ReadableStream<Uint8Array> | null,
  failed: (error: unknown) => unknown,
  done: () => void,
): ReadableStream<Uint8Array> {
  if (!body) {
    done();
    return new ReadableStream({ start: (controller) => controller.close() });
  }
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done: ended, value } = await reader.read();
          if (ended) {
            done();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          done();
          controller.error(failed(error));
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    },
    // Nothing is read ahead of the engine: fetch's own buffer is the only one.
    { highWaterMark: 0 },
  );
}

/**
 * The URL as an error may name it: a download URL carries its credential in the path
 * (`/downloads/<token>/<name>`) or the query, so only the origin and the file's name are kept.
 */
function nameOnly(url: string): string {
  const parsed = new URL(url, globalThis.location?.href);
  const name = parsed.pathname.split('/').filter(Boolean).at(-1) ?? '';
  return `${parsed.origin}/…/${name}`;
}
