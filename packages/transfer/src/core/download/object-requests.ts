import { NoAnswerError, type Clock, type HttpClient } from '../ports';
import { DownloadFailedError } from './options';
import type { Chunk } from './plan';
import type { DownloadDescriptor } from './ports';

/** A chunk's attempt that failed in a way another attempt may not (no answer, 5xx, cut short). */
export class ChunkAttemptError extends Error {
  override readonly name = 'ChunkAttemptError';
}

export interface ChunkFetch {
  readonly http: HttpClient;
  readonly url: string;
  /** The object's ETag from the HEAD: sent as If-Range so a changed object answers 200, never mixed bytes. */
  readonly etag: string | null;
  /** The object's size, which every Content-Range must name. */
  readonly size: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Called with each run of bytes as it arrives, at its offset in the object; its writes done when it resolves. */
  readonly onBytes: (offset: number, bytes: Uint8Array) => Promise<void>;
}

/**
 * One ranged GET of `chunk` from `chunk.next` to its end, its body read as it arrives and handed
 * to `onBytes`, `chunk.next` moving past each run once written: a retry starts where it stopped.
 * @throws ChunkAttemptError when the attempt may be retried, DownloadFailedError when no retry can
 *   help (the object changed, a range that does not match, the grant refused), or what
 *   `onBytes` throws.
 */
export async function fetchChunk(chunk: Chunk, fetch: ChunkFetch): Promise<void> {
  const last = chunk.end - 1;
  const headers: Record<string, string> = { range: `bytes=${chunk.next}-${last}` };
  if (fetch.etag) headers['if-range'] = fetch.etag;
  let response;
  try {
    response = await fetch.http.request({
      method: 'GET',
      url: fetch.url,
      headers,
      signal: fetch.signal,
      timeoutMs: fetch.timeoutMs,
      stream: true,
    });
  } catch (error) {
    fetch.signal.throwIfAborted();
    throw new ChunkAttemptError(messageOf(error), { cause: error });
  }
  const { status } = response;
  // An answer not read frees its connection only when dropped.
  if (status !== 206)
    void response
      .body?.()
      .cancel()
      .catch(() => undefined);
  if (status >= 500 || status === 429 || status === 408) {
    throw new ChunkAttemptError(`the server answered ${status}`);
  }
  if (status === 200) {
    throw new DownloadFailedError(
      'other',
      'The file changed on the server while it was downloading; start the download again.',
    );
  }
  if (status !== 206) {
    throw new DownloadFailedError(
      'other',
      `The download was refused (HTTP ${status}); the link may have expired.`,
    );
  }
  const expected = `bytes ${chunk.next}-${last}/${fetch.size}`;
  const contentRange = response.header('content-range')?.trim() ?? null;
  if (contentRange !== expected) {
    throw new DownloadFailedError(
      'other',
      `The server sent other bytes than asked for (${contentRange ?? 'no Content-Range'}, wanted ${expected}).`,
    );
  }
  if (!response.body) {
    throw new DownloadFailedError('other', 'This HTTP client cannot stream a download.');
  }
  await readBody(chunk, response.body(), fetch);
}

async function readBody(
  chunk: Chunk,
  body: ReadableStream<Uint8Array>,
  fetch: ChunkFetch,
): Promise<void> {
  const reader = body.getReader();
  // An abort (the person, or the stall check) ends a read waiting on a silent connection.
  const onAbort = () => void reader.cancel(fetch.signal.reason).catch(() => undefined);
  fetch.signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let read;
      try {
        read = await reader.read();
      } catch (error) {
        fetch.signal.throwIfAborted();
        throw new ChunkAttemptError(`the answer was cut off: ${messageOf(error)}`, {
          cause: error,
        });
      }
      fetch.signal.throwIfAborted();
      if (read.done) break;
      const left = chunk.end - chunk.next;
      if (read.value.length > left) {
        throw new DownloadFailedError('other', 'The server sent more bytes than the range asked.');
      }
      if (read.value.length === 0) continue;
      await fetch.onBytes(chunk.next, read.value);
      chunk.next += read.value.length;
    }
    if (chunk.next < chunk.end) {
      throw new ChunkAttemptError(`the answer ended ${chunk.end - chunk.next} bytes short`);
    }
  } finally {
    fetch.signal.removeEventListener('abort', onAbort);
    reader.releaseLock();
    if (chunk.next < chunk.end) void body.cancel().catch(() => undefined);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * HEAD of the object: its size must be the descriptor's, and its ETag (answered, or null when
 * the server gives none) guards every range after. No answer and 5xx are tried `retries` times.
 */
export async function headObject(
  descriptor: DownloadDescriptor,
  request: { http: HttpClient; clock: Clock; retries: number; timeoutMs: number },
  signal: AbortSignal,
): Promise<string | null> {
  for (let failures = 0; ; failures++) {
    let reason: string;
    try {
      const response = await request.http.request({
        method: 'HEAD',
        url: descriptor.downloadUrl,
        signal,
        timeoutMs: request.timeoutMs,
      });
      if (response.status >= 200 && response.status < 300) {
        const size = Number(response.header('content-length'));
        if (size !== descriptor.size) {
          throw new DownloadFailedError(
            'other',
            `The server holds ${size} bytes for ${descriptor.filename}, not the ${descriptor.size} expected.`,
          );
        }
        return response.header('etag');
      }
      if (response.status < 500 && response.status !== 429) {
        throw new DownloadFailedError(
          'other',
          `The download was refused (HTTP ${response.status}); the link may have expired.`,
        );
      }
      reason = `the server answered ${response.status}`;
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      reason = error.message;
    }
    if (failures >= request.retries) {
      throw new DownloadFailedError('network', `The download could not start: ${reason}.`);
    }
    await request.clock.sleep(backoff(failures + 1), signal);
  }
}

/** 1 s, 2 s, 4 s… between a chunk's attempts, at most 30 s. */
export function backoff(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** (failures - 1));
}
