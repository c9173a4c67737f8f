import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from '../db/client';
import { jobs } from '../db/schema';
import { PollingWorker } from './polling-worker';
import { retryDelaySeconds } from './outbox-sender';

/** Does one job; `db` is a transaction that also marks the job done, so effects and completion commit together. */
export type JobHandler = (db: Database, payload: Record<string, unknown>) => Promise<void>;

const MAX_ATTEMPTS = 8;

/**
 * Durable background work (reports): a job is a row, so a restart between request and result
 * loses nothing. Rows are leased before they run, as in the outbox, so any node may take them.
 */
export class JobRunner {
  private readonly worker: PollingWorker;
  private readonly handlers = new Map<string, JobHandler>();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {
    this.worker = new PollingWorker('jobs', () => this.drain(), log, 5000);
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Queues a job in the caller's transaction; it runs once that commits, or with `runAt`, once
   * that time has come (within a poll of it).
   */
  async enqueue(
    db: Database,
    kind: string,
    payload: Record<string, unknown>,
    runAt?: Date,
  ): Promise<void> {
    await db.insert(jobs).values({ kind, payload, ...(runAt ? { runAt } : {}) });
    setTimeout(() => this.worker.wake(), 50).unref();
  }

  start(): void {
    this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Runs every due job once; returns how many finished. */
  async drain(): Promise<number> {
    let done = 0;
    for (;;) {
      const due = await queryRows<{
        id: number;
        kind: string;
        payload: Record<string, unknown>;
        attempts: number;
      }>(
        this.db,
        sql`
        update ${jobs} set run_at = now() + interval '10 minutes', attempts = attempts + 1
        where id in (
          select id from ${jobs} where done_at is null and run_at <= now() and attempts < ${MAX_ATTEMPTS}
          order by id limit 5 for update skip locked)
        returning id, kind, payload, attempts`,
      );
      if (due.length === 0) return done;
      for (const job of due) {
        const handler = this.handlers.get(job.kind);
        try {
          if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
          await this.db.transaction(async (tx) => {
            await handler(tx, job.payload);
            await tx
              .update(jobs)
              .set({ doneAt: new Date(), lastError: null })
              .where(eq(jobs.id, job.id));
          });
          done++;
        } catch (error) {
          this.log.warn(
            { jobId: job.id, kind: job.kind, attempts: job.attempts, err: error },
            'job failed, will retry',
          );
          await this.db
            .update(jobs)
            .set({
              lastError: String(error),
              runAt: sql`now() + make_interval(secs => ${retryDelaySeconds(job.attempts)})`,
            })
            .where(eq(jobs.id, job.id));
        }
      }
    }
  }
}
