import type { ByteSource, FileHasher } from '../core/ports';
import type { HashReply, HashRequest } from './hash-messages';

/** A file could not be hashed: it became unreadable (moved, edited, permission gone). */
export class FileHashError extends Error {
  override readonly name = 'FileHashError';
  readonly code = 'HASH_FAILED';
  constructor(
    path: string,
    /** The browser's error name, e.g. NotReadableError when the file changed on disk. */
    readonly reason: string,
  ) {
    super(`could not hash ${path}: ${reason}`);
  }
}

export interface WorkerFileHasherOptions {
  /** Makes the worker; by default the bundled hash-worker module. */
  createWorker?: () => Worker;
}

interface PendingHash {
  path: string;
  resolve(digest: string): void;
  reject(error: unknown): void;
}

/**
 * xxh128 of whole files in a Web Worker (hash-wasm), so a 50 GB file is hashed beside the upload
 * without blocking the page or holding more than a buffer of it. One worker serves every file;
 * it starts on first use and stops with `dispose`.
 */
export class WorkerFileHasher implements FileHasher {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, PendingHash>();
  private nextId = 1;
  private readonly createWorker: () => Worker;

  constructor(options: WorkerFileHasherOptions = {}) {
    this.createWorker =
      options.createWorker ??
      (() => new Worker(new URL('./hash-worker.ts', import.meta.url), { type: 'module' }));
  }

  xxh128(source: ByteSource, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const id = this.nextId++;
      const onAbort = () => {
        this.pending.delete(id);
        this.worker?.postMessage({ type: 'cancel', id } satisfies HashRequest);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        path: source.path,
        resolve: (digest) => (done(), resolve(digest)),
        reject: (error) => (done(), reject(error)),
      });
      const blob = source.slice(0, source.size);
      this.started().postMessage({ type: 'hash', id, blob } satisfies HashRequest);
    });
  }

  /** Stops the worker; hashes still running reject. */
  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll('disposed');
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.addEventListener('message', (event: MessageEvent<HashReply>) => {
      const reply = event.data;
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (reply.type === 'digest') job.resolve(reply.digest);
      else job.reject(new FileHashError(job.path, reply.name));
    });
    // A worker that failed to load or crashed answers nothing more: fail what it had, and
    // start a new one for the next file.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (this.worker === worker) this.worker = null;
      worker.terminate();
      this.failAll('worker failed');
    });
    this.worker = worker;
    return worker;
  }

  private failAll(reason: string): void {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    for (const job of jobs) job.reject(new FileHashError(job.path, reason));
  }
}
