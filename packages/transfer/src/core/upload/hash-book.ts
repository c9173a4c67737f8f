import type { ByteSource, FileHasher } from '../ports';
import type { LedgerWriter } from './ledger';
import { Slots } from './slots';

/** What hashing one file takes of the budget: its size, within these bounds. */
const LEAST_SHARE = 256 * 1024;
const MOST_SHARE = 8 * 1024 * 1024;
/** Hashes under way at once: two large files, or 64 small ones. */
const HASHING_BUDGET = 2 * MOST_SHARE;

/**
 * Every file's xxh128, computed beside its upload and reported with it. A file is hashed once
 * (the ledger keeps hashes across runs). A few large files at a time, so hashing them does not
 * hold up the small ones and the CPU stays free for sending; many small files at a time, since
 * each waits mostly on its read and a round trip to the hasher, not on the CPU.
 */
export class HashBook {
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private readonly budget = new Slots(HASHING_BUDGET);

  constructor(
    private readonly hasher: FileHasher | undefined,
    private readonly ledger: LedgerWriter,
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

  /** A hash computed elsewhere (while packing a slab), kept as if computed here. */
  record(source: ByteSource, hash: string): void {
    // Written with the next report's change of the ledger, not on its own.
    this.ledger.ledger.hashes[source.path] = hash;
  }

  private async compute(hasher: FileHasher, source: ByteSource, signal?: AbortSignal) {
    const share = Math.min(MOST_SHARE, Math.max(LEAST_SHARE, source.size));
    const release = await this.budget.take(signal, share);
    try {
      const hash = await hasher.xxh128(source, signal);
      this.record(source, hash);
      return hash;
    } finally {
      release();
    }
  }
}
