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

// The HTTP port and the clock are the API client's as well, so they live with it in the protocol.
export {
  NoAnswerError,
  systemClock,
  type Clock,
  type FormBody,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  type NoAnswerCode,
  type RequestMethod as HttpMethod,
} from '@filerunner/protocol';

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
