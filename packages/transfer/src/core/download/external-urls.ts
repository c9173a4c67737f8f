import type { Clock, HttpClient } from '../ports';

/** How long each of an external package's addresses has to answer its HEAD. */
export const URL_CHECK_TIMEOUT_MS = 5000;

/**
 * The addresses of an external descriptor (`download_urls`, `storage_urls`) worth downloading
 * from: only http(s) ones, each asked with a HEAD that must answer 2xx within 5 s. Answers those
 * that did, in the order given.
 * @throws Error "No valid URLs" when none answered.
 */
export async function checkDownloadUrls(
  urls: readonly string[],
  http: HttpClient,
  clock: Clock,
  signal?: AbortSignal,
): Promise<string[]> {
  const candidates = urls.filter(isHttp);
  const answered = await Promise.all(candidates.map((url) => answers(url, http, clock, signal)));
  const valid = candidates.filter((_, i) => answered[i]);
  if (valid.length === 0) throw new Error('No valid URLs');
  return valid;
}

function isHttp(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

async function answers(
  url: string,
  http: HttpClient,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  // The clock's timer as well as the client's, so the 5 s hold whatever the client does.
  const timer = clock.sleep(URL_CHECK_TIMEOUT_MS, controller.signal).then(
    () => controller.abort(new Error('no answer in time')),
    () => undefined,
  );
  try {
    const response = await http.request({
      method: 'HEAD',
      url,
      signal: controller.signal,
      timeoutMs: URL_CHECK_TIMEOUT_MS,
    });
    return response.status >= 200 && response.status < 300;
  } catch {
    signal?.throwIfAborted();
    return false;
  } finally {
    if (!controller.signal.aborted) controller.abort();
    signal?.removeEventListener('abort', stop);
    await timer;
  }
}
