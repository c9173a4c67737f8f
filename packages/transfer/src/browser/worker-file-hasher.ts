import type { ByteSource, FileHasher, SlabPacker } from '../core/ports';
import type { SlabPart } from '../core/upload/plan';
import type { HashReplies, HashReply, HashRequest } from './hash-messages';

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
  /** The file hashed, or the slab packed, as errors name it. */
  path: string;
  answered(reply: HashReply & { type: 'digest' | 'packed' }): void;
  reject(error: unknown): void;
}

/**
 * xxh128 of whole files in a Web Worker (hash-wasm), so a 50 GB file is hashed beside the upload
 * without blocking the page or holding more than a buffer of it. One worker serves every file;
 * it starts on first use and stops with `dispose`. Files asked for together go to the worker in
 * one message, and their digests come back together. The same worker packs slabs of small
 * files (`SlabPacker`), reading each file once for its bytes and its hash.
 */
export class WorkerFileHasher implements FileHasher, SlabPacker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, PendingHash>();
  /** Files asked for in this turn of the event loop, posted together at its end. */
  private unsent: { id: number; blob: Blob }[] = [];
  private nextId = 1;
  private readonly createWorker: () => Worker;

  constructor(options: WorkerFileHasherOptions = {}) {
    this.createWorker =
      options.createWorker ??
      (() => new Worker(new URL('./hash-worker.ts', import.meta.url), { type: 'module' }));
  }

  async xxh128(source: ByteSource, signal?: AbortSignal): Promise<string> {
    const reply = await this.ask(source.path, signal, (id) => {
      if (this.unsent.length === 0) queueMicrotask(() => this.post());
      this.unsent.push({ id, blob: source.slice(0, source.size) });
    });
    return (reply as HashReply & { type: 'digest' }).digest;
  }

  async pack(
    parts: SlabPart[],
    hashed: number[],
    signal?: AbortSignal,
  ): Promise<{ body: Blob; hashes: string[] }> {
    const reply = await this.ask('a slab', signal, (id) =>
      this.started().postMessage({ type: 'pack', id, parts, hashed } satisfies HashRequest),
    );
    const { body, digests } = reply as HashReply & { type: 'packed' };
    return { body, hashes: digests };
  }

  /** Stops the worker; hashes still running reject. */
  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll('disposed');
  }

  /** Sends a request made by `send` under a new id; resolves with its answer. */
  private ask(
    path: string,
    signal: AbortSignal | undefined,
    send: (id: number) => void,
  ): Promise<HashReply & { type: 'digest' | 'packed' }> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const id = this.nextId++;
      const onAbort = () => {
        this.pending.delete(id);
        const unsent = this.unsent.findIndex((file) => file.id === id);
        if (unsent >= 0) this.unsent.splice(unsent, 1);
        else this.worker?.postMessage({ type: 'cancel', id } satisfies HashRequest);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        path,
        answered: (reply) => (done(), resolve(reply)),
        reject: (error) => (done(), reject(error)),
      });
      send(id);
    });
  }

  private post(): void {
    const files = this.unsent;
    this.unsent = [];
    if (files.length > 0) this.started().postMessage({ type: 'hash', files } satisfies HashRequest);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.addEventListener('message', (event: MessageEvent<HashReplies>) => {
      for (const reply of event.data) {
        const job = this.pending.get(reply.id);
        if (!job) continue;
        this.pending.delete(reply.id);
        if (reply.type === 'failed') job.reject(new FileHashError(job.path, reply.name));
        else job.answered(reply);
      }
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
    this.unsent = [];
    for (const job of jobs) job.reject(new FileHashError(job.path, reason));
  }
}
