import type { ByteSource, FileHasher } from '../ports';
import type { LedgerWriter } from './ledger';

/**
 * Every file's xxh128, computed beside its upload and reported with it. A file is hashed once
 * (the ledger keeps hashes across runs); a few at a time, so hashing a large file does not hold
 * up the small ones and the CPU stays free for sending.
 */
export class HashBook {
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly hasher: FileHasher | undefined,
    private readonly ledger: LedgerWriter,
    private readonly concurrency = 2,
  ) {}

  /** The file's xxh128 (undefined without a hasher); starts hashing it if nobody has yet. */
  of(source: ByteSource, signal?: AbortSignal): Promise<string | undefined> {
    if (!this.hasher) return Promise.resolve(undefined);
    const known = this.ledger.ledger.hashes[source.path];
    if (known) return Promise.resolve(known);
    let hashing = this.pending.get(source.path);
    if (!hashing) {
      hashing = this.compute(this.hasher, source, signal);
      this.pending.set(source.path, hashing);
      // A failed or aborted hash is tried again by whoever asks next.
      hashing.catch(() => this.pending.delete(source.path));
    }
    return hashing;
  }

  private async compute(hasher: FileHasher, source: ByteSource, signal?: AbortSignal) {
    while (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
    try {
      signal?.throwIfAborted();
      const hash = await hasher.xxh128(source, signal);
      // Written with the next report's change of the ledger, not on its own.
      this.ledger.ledger.hashes[source.path] = hash;
      return hash;
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
