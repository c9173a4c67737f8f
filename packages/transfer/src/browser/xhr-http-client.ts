import { NoAnswerError } from '@filerunner/protocol';
import type { HttpClient, HttpRequest, HttpResponse } from '../core/ports';
import { encodedBody } from './form-data';

export interface XhrHttpClientOptions {
  /**
   * Which requests carry cookies when they cross origins (XHR's `withCredentials`); same-origin
   * requests always do. Storage behind a wildcard CORS rule refuses credentialed requests, so the
   * default sends none.
   */
  withCredentials?: boolean | ((url: URL) => boolean);
}

/**
 * The browser's HTTP client. XMLHttpRequest, not fetch: only XHR reports how much of a request
 * body has left, and the engine's progress, rate and ETA come from that. Blob bodies (a
 * `File.slice()`, a slab composed of headers and files) are streamed from disk by the browser,
 * so the page never holds the bytes it sends.
 */
export class XhrHttpClient implements HttpClient {
  constructor(private readonly options: XhrHttpClientOptions = {}) {}

  request(request: HttpRequest): Promise<HttpResponse> {
    const { method, url, signal } = request;
    return new Promise<HttpResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(method, url, true);
      xhr.withCredentials = this.credentialsFor(url);
      if (request.timeoutMs) xhr.timeout = request.timeoutMs;
      const { body = null, contentType } = encodedBody(request.body);
      const headers = request.headers ?? {};
      const hasContentType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
      if (contentType && !hasContentType) xhr.setRequestHeader('content-type', contentType);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);

      const onAbort = () => xhr.abort();
      const settle = (outcome: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      xhr.onload = () => settle(() => resolve(answerOf(xhr)));
      xhr.onerror = () => settle(() => reject(new NoAnswerError('NETWORK_ERROR', method, url)));
      xhr.ontimeout = () => settle(() => reject(new NoAnswerError('TIMEOUT', method, url)));
      xhr.onabort = () => settle(() => reject(signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });

      // Listening to upload events makes a cross-origin request need a preflight, so only
      // requests whose progress someone watches pay for one.
      const report = request.onUploadProgress;
      if (report) {
        let sent = 0;
        const onProgress = (event: ProgressEvent) => {
          if (event.loaded <= sent) return;
          sent = event.loaded;
          report(sent);
        };
        xhr.upload.addEventListener('progress', onProgress);
        xhr.upload.addEventListener('load', onProgress);
      }
      xhr.send(body);
    });
  }

  private credentialsFor(url: string): boolean {
    const rule = this.options.withCredentials ?? false;
    return typeof rule === 'boolean' ? rule : rule(new URL(url, globalThis.location?.href));
  }
}

function answerOf(xhr: XMLHttpRequest): HttpResponse {
  const text = xhr.responseText;
  return {
    status: xhr.status,
    header: (name) => xhr.getResponseHeader(name),
    text: () => Promise.resolve(text),
  };
}
