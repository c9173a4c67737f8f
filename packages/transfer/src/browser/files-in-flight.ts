/**
 * The files a folder download holds open for writing, at most `limit` at once (the spec's "up to
 * 10 files in flight while extracting"): each open file is a writable stream with a swap file
 * behind it, so the number open is what the browser's disk and memory pay for.
 *
 * A file asked for when every place is taken waits for one to free. Chunks arrive in any order,
 * so the open files may all be waiting for bytes that only a waiting write would bring; rather
 * than let the download stall, the least recently written file with no write under way is
 * closed early ("parked": its bytes so far are kept) and opened again, keeping those bytes, when
 * more of it arrives. A file being closed still counts until its close is done.
 */
export class FilesInFlight<File extends InFlight> {
  private readonly open = new Map<number, File>();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly park: (file: File) => Promise<void>,
  ) {}

  get(index: number): File | undefined {
    return this.open.get(index);
  }

  get size(): number {
    return this.open.size;
  }

  all(): File[] {
    return [...this.open.values()];
  }

  /**
   * A place for file `index`, made by `make` once there is room (called synchronously, so the
   * place is taken before anything else is awaited); the file already open when it is. The
   * file comes back with the caller's write counted in `busy` (the caller takes it off when the
   * write settles), so nothing can park it between this answer and the write.
   * `park` must settle without throwing: its failure is the parked file's, not this caller's.
   */
  async place(index: number, make: () => File, signal?: AbortSignal): Promise<File> {
    for (;;) {
      signal?.throwIfAborted();
      const open = this.open.get(index);
      if (open && !open.parking) {
        open.busy++;
        return open;
      }
      if (open) {
        // Being parked: it opens again, its bytes kept, once that close is done.
        await this.nextRelease(signal);
        continue;
      }
      if (this.open.size < this.limit) {
        const file = make();
        this.open.set(index, file);
        file.busy++;
        return file;
      }
      const idle = this.leastRecentlyWrittenIdle();
      if (idle) {
        idle.parking = true;
        try {
          await this.park(idle);
        } finally {
          this.release(idle);
        }
      } else await this.nextRelease(signal);
    }
  }

  /** The file is closed (or dropped): its place is free. */
  release(file: File): void {
    // Only that file: the same index may already be open again.
    if (this.open.get(file.index) === file) this.open.delete(file.index);
    this.changed();
  }

  /** A write finished, so a file may have become idle: waiters look again. */
  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private leastRecentlyWrittenIdle(): File | undefined {
    let idle: File | undefined;
    for (const file of this.open.values()) {
      if (file.busy > 0 || file.closing || file.parking || !file.ready) continue;
      if (!idle || file.lastWritten < idle.lastWritten) idle = file;
    }
    return idle;
  }

  private nextRelease(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

/** What the pool needs to know of an open file to choose one to park. */
export interface InFlight {
  readonly index: number;
  /** Writes handed to the file and not yet settled. */
  busy: number;
  /** Set by the pool's clock of writes: a larger number was written more recently. */
  lastWritten: number;
  /** Its writable stream exists (it is not still being opened). */
  ready: boolean;
  closing: boolean;
  parking: boolean;
}
