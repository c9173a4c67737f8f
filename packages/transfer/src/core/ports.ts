import type { SlabPart } from './upload/plan';

/**
 * What the transfer engine needs from the platform it runs on. The core is written against these
 * ports only; `src/browser/` and `src/node/` implement them (fetch or XHR, `File` or files on
 * disk, IndexedDB or a JSON file), so the same engine runs in a page, in the CLI and in tests.
 *
 * Bytes travel as `Blob`s: both platforms have them, slicing one never copies, and a Blob
 * composed of other Blobs (tar headers and file slices for a slab) is read lazily when sent. In
 * the browser a `File` is a Blob; in Node `fs.openAsBlob` gives one backed by the file on disk.
 */

/** One file the sender picked: where it sits in the package, and its bytes. */
export interface ByteSource {
  /** The path inside the package, with `/` between folders (the user's path, not the object name). */
  readonly path: string;
  readonly size: number;
  /** Milliseconds since the epoch; with path and size, how a re-picked file is recognised. */
  readonly lastModified: number;
  /** The bytes from `start` up to `end` (exclusive), without reading them. */
  slice(start: number, end: number): Blob;
}

/** The identity by which a file picked again after a reload is matched to the one recorded. */
export function sourceIdentity(source: Pick<ByteSource, 'path' | 'size' | 'lastModified'>) {
  return `${source.path}\u0000${source.size}\u0000${source.lastModified}`;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A multipart form body: fields in order, then files (Swift's FormPost needs files last). */
export interface FormBody {
  fields: [name: string, value: string][];
  files: { field: string; filename: string; content: Blob }[];
}

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** Bytes (a Blob), a form, or a value sent as JSON. */
  body?: Blob | FormBody | { json: unknown };
  signal?: AbortSignal;
  /** Called as the request body leaves, with the bytes sent so far (never decreasing). */
  onUploadProgress?: (sentBytes: number) => void;
  /** No answer within this many milliseconds aborts the request; 0 or absent waits forever. */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** A header of the answer, case-insensitive; null when absent. */
  header(name: string): string | null;
  text(): Promise<string>;
}

/**
 * Sends one request. Any HTTP status resolves (the engine's retry and abort policies judge
 * statuses); a network failure, a timeout or an abort rejects.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/**
 * Where an upload records what is already stored, so that after a reload or a crash only what
 * is missing is sent again. Keys are package slugs; values are the engine's ledger, stored as
 * given (the store may serialise them as JSON).
 */
export interface ResumeStore<Ledger = unknown> {
  get(key: string): Promise<Ledger | undefined>;
  put(key: string, ledger: Ledger): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every ledger kept, for listing interrupted uploads. */
  keys(): Promise<string[]>;
}

/** Time, so tests can run the engine's timers (retry delays, the abort check) instantly. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Hashes whole files: xxh128 (the hash ASC MHL uses), as 32 lowercase hex digits. The browser
 * runs it in a worker so the page stays responsive; Node runs it beside the upload.
 */
export interface FileHasher {
  xxh128(source: ByteSource, signal?: AbortSignal): Promise<string>;
}

/**
 * Reads a slab of small files into memory in one pass, hashing its files on the way. Without
 * one, a slab is sent as a Blob joined from the files' slices, which the browser reads from
 * disk as it sends, while the hasher reads every file again; a packer reads each file once,
 * and the slab goes as one Blob of bytes rather than a part per file.
 */
export interface SlabPacker {
  /**
   * `parts` joined as `new Blob(parts)` would join them, but held in memory, and the xxh128 of
   * each part that `hashed` names (by index), in that order.
   */
  pack(
    parts: SlabPart[],
    hashed: number[],
    signal?: AbortSignal,
  ): Promise<{ body: Blob; hashes: string[] }>;
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
