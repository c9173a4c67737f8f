/**
 * Uploads take turns: one sends at a time, the next starts when it is over (sent, cancelled,
 * or stopped on a failure that waits for the person). Splitting the line between packages
 * would only make each arrive later.
 */
export class UploadQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** Waits for the turn; the answer gives it back (calling it twice does nothing). */
  async turn(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = this.tail;
    this.tail = before.then(() => mine);
    this.waiting++;
    await before;
    this.waiting--;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  /** Uploads waiting for their turn. */
  get length(): number {
    return this.waiting;
  }
}
