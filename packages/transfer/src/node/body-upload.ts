import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HttpMethod, HttpResponse } from '../core/ports';
import { blobChunks } from './file-reads';

/**
 * Sends `body` with node:http rather than fetch. fetch takes a body as a stream of chunks it
 * may hold for as long as it likes, so every chunk must be a fresh buffer, and in the CLI's heap
 * collecting a fresh 1 MiB buffer per read costs more CPU than sending the bytes; node:http
 * calls back once a chunk is written, so two buffers read into in turn carry the whole body.
 * Answers once the whole answer is read (the engine's answers are short); rejects with the
 * signal's reason when it aborts, and with the read's error when the body cannot be read.
 */
export function uploadBody(
  url: string,
  init: {
    method: HttpMethod;
    headers: Record<string, string>;
    body: Blob;
    signal: AbortSignal;
    onProgress?: (sentBytes: number) => void;
  },
): Promise<HttpResponse> {
  const { signal } = init;
  return new Promise<HttpResponse>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, {
      method: init.method,
      headers: { ...init.headers, 'content-length': String(init.body.size) },
    });
    const onAbort = () => request.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: () => void) => {
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    // A write that fails after the answer came (the server answered early) errs again.
    request.on('error', (error) => settle(() => reject(error)));
    request.once('response', (response) => {
      readAnswer(response).then(
        (answer) => {
          // Answered before the whole body went (a refusal): the rest would go for nothing.
          if (!request.writableEnded) request.destroy();
          settle(() => resolve(answer));
        },
        (error: unknown) => settle(() => reject(error as Error)),
      );
    });
    writeBody(request, init.body, init.onProgress).catch((error: unknown) =>
      request.destroy(error as Error),
    );
  });
}

/**
 * Writes the Blob's bytes, reporting each chunk once it is written. A chunk's buffer is read
 * into again two chunks later, so the next chunk is read while this one is written, and no
 * more is asked for before it is.
 */
async function writeBody(
  request: ClientRequest,
  body: Blob,
  onProgress?: (sentBytes: number) => void,
) {
  let sent = 0;
  let previous = Promise.resolve();
  for await (const chunk of blobChunks(body, { buffers: 2 })) {
    if (request.destroyed) return;
    const written = new Promise<void>((resolve, reject) =>
      request.write(chunk, (error) => {
        if (error) return reject(error);
        sent += chunk.byteLength;
        onProgress?.(sent);
        resolve();
      }),
    );
    // Awaited on the next turn; until then a failed write must not count as unhandled.
    written.catch(() => undefined);
    await previous;
    previous = written;
  }
  await previous;
  request.end();
}

async function readAnswer(response: IncomingMessage): Promise<HttpResponse> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return {
    status: response.statusCode ?? 0,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: async () => new TextDecoder().decode(bytes),
    // Read whole above (answers to uploads are short); streamed for a caller that wants body().
    body: () => new Blob([bytes]).stream(),
  };
}
