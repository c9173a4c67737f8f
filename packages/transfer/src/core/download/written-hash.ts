import type { IHasher } from 'hash-wasm';
import { giveBackXxh128 } from '../xxh128';
import { RangeSet, type ByteRange } from './ranges';

/**
 * Reads bytes [start, end) of the file back from where they were written, handing them to `use`
 * in order, a piece at a time.
 */
export type ReadBack = (
  start: number,
  end: number,
  use: (bytes: Uint8Array) => void,
) => Promise<void>;

/**
 * One file's xxh128, taken as its bytes are written, so the check after its close needs no
 * second read of the whole file. A streaming hash needs the bytes in order, and chunks write a
 * file at several offsets at once: the written prefix is hashed as it grows, straight from the
 * bytes being written; bytes written ahead of it are only noted, and read back from the file
 * when the gap before them fills. Reading them back (from the page cache, as they were just
 * written) keeps memory flat whatever the chunk size and the number of chunks at once, where
 * holding them until the gap fills would keep up to a chunk per chunk in flight; for a file
 * written by one chunk, the common case, nothing is read back.
 *
 * Bytes an earlier run wrote (the ledger's ranges, given to `kept`) are read back once the same
 * way, so a resumed file is checked without reading it all again at the end.
 */
export class WrittenHash {
  private upTo = 0;
  private readonly ahead = new RangeSet();
  private catchingUp: Promise<void> | null = null;
  /** A read back failed: the digest is not known, and the file is checked by reading it. */
  private failed = false;
  private released = false;

  constructor(
    private readonly size: number,
    private readonly hasher: IHasher,
    private readonly readBack: ReadBack,
  ) {}

  /** Ranges already in the file from an earlier run. */
  kept(ranges: readonly ByteRange[]): void {
    for (const [start, end] of ranges) this.ahead.add(start, end);
    this.catchUp();
  }

  /**
   * `data` is in the file at `offset`. Called as soon as the write resolves (before the caller
   * may reuse `data`): bytes that extend the hashed prefix are hashed now.
   */
  written(offset: number, data: Uint8Array): void {
    if (this.failed || this.released) return;
    if (!this.catchingUp && offset === this.upTo) {
      this.hasher.update(data);
      this.upTo += data.length;
    } else this.ahead.add(offset, offset + data.length);
    this.catchUp();
  }

  /** The file's xxh128 once every byte is hashed; null when some were not (the caller reads it). */
  async digest(): Promise<string | null> {
    while (this.catchingUp) await this.catchingUp;
    if (this.released) return null;
    const whole = !this.failed && this.upTo === this.size;
    const digest = whole ? this.hasher.digest('hex') : null;
    this.release();
    return digest;
  }

  /** Gives the hasher back for the next file; this one's hash is no longer taken. */
  release(): void {
    if (this.released) return;
    this.released = true;
    // One still reading back keeps its hasher: it is not handed to another file mid-update.
    if (!this.catchingUp) giveBackXxh128(this.hasher);
  }

  private catchUp(): void {
    if (this.catchingUp || this.failed || this.released) return;
    const end = this.ahead.endOfRunAt(this.upTo);
    if (end <= this.upTo) return;
    this.catchingUp = this.readBack(this.upTo, end, (bytes) => {
      if (this.released) return;
      this.hasher.update(bytes);
      this.upTo += bytes.length;
    }).then(
      () => {
        this.catchingUp = null;
        if (this.released) return;
        this.catchUp();
      },
      () => {
        this.catchingUp = null;
        this.failed = true;
      },
    );
  }
}
