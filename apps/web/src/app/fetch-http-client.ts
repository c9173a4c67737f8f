import { NoAnswerError, type HttpClient, type HttpRequest } from '@filerunner/protocol';
import { encodedBody } from '@filerunner/transfer/form-data';

/**
 * The page's client for API calls, over fetch with the session cookie. The upload engine sends
 * its storage requests through XHR instead, for upload progress; the app's calls need none, and
 * fetch keeps the pages that never upload (the login page) small.
 */
export function fetchHttpClient(
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): HttpClient {
  return {
    async request({ method, url, headers = {}, body, signal, timeoutMs }: HttpRequest) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = timeoutMs
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
      try {
        const sent = encodedBody(body);
        const response = await fetchImpl(url, {
          method,
          headers: sent.contentType ? { 'content-type': sent.contentType, ...headers } : headers,
          body: sent.body,
          credentials: 'include',
          signal: controller.signal,
        });
        const text = method === 'HEAD' ? '' : await response.text();
        return {
          status: response.status,
          header: (name: string) => response.headers.get(name),
          text: async () => text,
        };
      } catch (error) {
        signal?.throwIfAborted();
        throw new NoAnswerError(timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', method, url, {
          cause: error,
        });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
