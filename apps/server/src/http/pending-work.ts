/**
 * Work a request starts that outlives its response: a download is recorded when its connection
 * closes, after the handler returned. A stopping server waits for this work once the last
 * connection has closed and before the database closes, so no record is lost to a shutdown.
 */
export class PendingWork {
  private readonly pending = new Set<Promise<void>>();

  /** Tracks `work` until it settles; the caller handles (logs) its failure. */
  track(work: Promise<void>): void {
    const tracked: Promise<void> = work.then(
      () => void this.pending.delete(tracked),
      () => void this.pending.delete(tracked),
    );
    this.pending.add(tracked);
  }

  /** Resolves when nothing is pending, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
