import { setMaxListeners } from 'node:events';
import {
  NoAnswerError,
  type FormBody,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
} from '../core/ports';
import { uploadBody } from './body-upload';

/**
 * The engine's HTTP client on Node: calls on the global fetch (undici), and bodies of bytes on
 * node:http (see `uploadBody`), read from where they live (a file on disk in large reads, see
 * `blobChunks`) and counted for upload progress; forms are written as a multipart Blob of the
 * same parts, so a FormPost of ten files is never held in memory either.
 */
export class FetchHttpClient implements HttpClient {
  async request(request: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(request.signal?.reason);
    // An upload's requests share its signal, more of them at once (storage requests, reports)
    // than the listener count at which Node warns of a leak.
    if (request.signal) setMaxListeners(0, request.signal);
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    let streaming = false;
    const timer =
      request.timeoutMs && request.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new Error(`no answer within ${request.timeoutMs} ms`));
          }, request.timeoutMs)
        : undefined;
    try {
      const headers: Record<string, string> = { ...request.headers };
      const { method, body } = request;
      if (body !== undefined && !('json' in body)) {
        return await uploadBody(request.url, {
          method,
          headers,
          body: bytesOf(body, headers),
          signal: controller.signal,
          onProgress: request.onUploadProgress,
        });
      }
      if (body) headers['content-type'] ??= 'application/json';
      const response = await fetch(request.url, {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body.json) } : {}),
        signal: controller.signal,
      });
      if (request.stream && response.body) {
        // The abort listener stays until the body is read: aborting then ends the body too.
        streaming = true;
        return streamedAnswer(response, () =>
          request.signal?.removeEventListener('abort', onAbort),
        );
      }
      // Read at once: the answers the engine gets are short, and an unread body holds the
      // connection until it is collected.
      const bytes =
        method === 'HEAD' ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        text: async () => new TextDecoder().decode(bytes),
        body: () => new Blob([bytes]).stream(),
      };
    } catch (error) {
      request.signal?.throwIfAborted();
      // Named as the browser's client names it, without the address's query (a signature).
      throw new NoAnswerError(timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', request.method, request.url, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      if (!streaming) request.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** An answer whose body is read as it arrives; `done` is called once it is read or dropped. */
function streamedAnswer(response: Response, done: () => void): HttpResponse {
  const source = response.body!;
  let handedOut = false;
  const once = () => {
    if (handedOut) throw new Error('the answer was read already');
    handedOut = true;
  };
  const body = () => {
    once();
    const reader = source.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const read = await reader.read();
          if (read.done) {
            done();
            controller.close();
          } else controller.enqueue(read.value);
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      async cancel(reason) {
        done();
        await reader.cancel(reason);
      },
    });
  };
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: async () => {
      once();
      try {
        return await response.text();
      } finally {
        done();
      }
    },
    body,
  };
}

/** A body of bytes as one Blob: itself, or a form written as multipart. */
function bytesOf(body: Blob | FormBody, headers: Record<string, string>): Blob {
  if (body instanceof Blob) return body;
  const form = multipartBlob(body);
  headers['content-type'] = form.contentType;
  return form.blob;
}

/** `"` and line breaks in a part's name or filename, escaped as browsers do (HTML's form encoding). */
const quoted = (value: string) =>
  value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A multipart/form-data body as one Blob over the fields' text and the files' own Blobs. */
export function multipartBlob(form: FormBody): { blob: Blob; contentType: string } {
  const boundary = `----filerunner${crypto.randomUUID().replace(/-/g, '')}`;
  const parts: (string | Blob)[] = [];
  for (const [name, value] of form.fields) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
    );
  }
  for (const file of form.files) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; ` +
        `filename="${quoted(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      file.content,
      '\r\n',
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return { blob: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
