import { setMaxListeners } from 'node:events';
import type { FormBody, HttpClient, HttpRequest, HttpResponse } from '../core/ports';

/**
 * The engine's HTTP client on Node's global fetch (undici). Blob bodies stream from where they
 * live (a file on disk for `fs.openAsBlob`), through a counter when the caller wants upload
 * progress; forms are written as a multipart Blob of the same parts, so a FormPost of ten files
 * is never held in memory either.
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
    const timer =
      request.timeoutMs && request.timeoutMs > 0
        ? setTimeout(
            () => controller.abort(new Error(`no answer within ${request.timeoutMs} ms`)),
            request.timeoutMs,
          )
        : undefined;
    try {
      const headers: Record<string, string> = { ...request.headers };
      const body = bodyOf(request, headers);
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        ...body,
        signal: controller.signal,
      });
      // Read at once: the answers the engine gets are short, and an unread body holds the
      // connection until it is collected.
      const bytes =
        request.method === 'HEAD' ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        text: async () => new TextDecoder().decode(bytes),
      };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function bodyOf(request: HttpRequest, headers: Record<string, string>): RequestInit {
  const { body } = request;
  if (body === undefined) return {};
  if ('json' in body) {
    headers['content-type'] ??= 'application/json';
    return { body: JSON.stringify(body.json) };
  }
  let blob: Blob;
  if (body instanceof Blob) blob = body;
  else {
    const form = multipartBlob(body);
    headers['content-type'] = form.contentType;
    blob = form.blob;
  }
  if (!request.onUploadProgress) return { body: blob };
  // A stream body loses the length, so it is given explicitly (undici sends it, not chunks).
  headers['content-length'] = String(blob.size);
  return { body: countedStream(blob, request.onUploadProgress), duplex: 'half' } as RequestInit;
}

function countedStream(blob: Blob, onProgress: (sentBytes: number) => void) {
  let sent = 0;
  return blob.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress(sent);
      },
    }),
  );
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
