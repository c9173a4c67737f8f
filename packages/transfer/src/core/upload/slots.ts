interface Turn {
  weight: number;
  signal: AbortSignal | undefined;
  start(): void;
  stop(reason: unknown): void;
}

/**
 * A budget shared by holders that wait their turn, in the order they asked: slots for requests
 * (each takes one) or bytes (each takes its size). A holder larger than the whole budget still
 * gets it, alone. A wait ends early, rejecting, when its signal aborts.
 */
export class Slots {
  private free: number;
  private readonly waiting: Turn[] = [];
  /**
   * Signals listened to, once each: an upload's many waits share its signal, and a listener
   * per wait would pass the listener count at which Node warns of a leak.
   */
  private readonly watched = new WeakSet<AbortSignal>();

  constructor(private readonly size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves with the release of `weight` of the budget once that much is free. */
  async take(signal?: AbortSignal, weight = 1): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.waiting.length === 0 && this.fits(weight)) {
      this.free -= weight;
      return this.releaser(weight);
    }
    if (signal && !this.watched.has(signal)) {
      this.watched.add(signal);
      signal.addEventListener('abort', () => this.dropStopped(), { once: true });
    }
    await new Promise<void>((start, stop) => this.waiting.push({ weight, signal, start, stop }));
    return this.releaser(weight);
  }

  private fits(weight: number): boolean {
    return weight <= this.free || this.free === Math.max(1, this.size);
  }

  private dropStopped() {
    for (const turn of [...this.waiting]) {
      if (!turn.signal?.aborted) continue;
      this.waiting.splice(this.waiting.indexOf(turn), 1);
      turn.stop(turn.signal.reason);
    }
    // Those behind them may fit now.
    this.admit();
  }

  private admit() {
    while (this.waiting[0] && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.free -= next.weight;
      next.start();
    }
  }

  private releaser(weight: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += weight;
      this.admit();
    };
  }
}
