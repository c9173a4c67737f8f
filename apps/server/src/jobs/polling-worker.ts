import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs a pass now and then: every `pollMs`, and soon after `wake()`. Passes never overlap; a
 * wake during a pass runs another one right after it.
 */
export class PollingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<unknown>,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs = 2000,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error }, `${this.name} pass failed`))
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          const next = this.again ? 0 : this.pollMs;
          this.again = false;
          this.schedule(next);
        });
    }, ms);
    this.timer.unref();
  }
}
