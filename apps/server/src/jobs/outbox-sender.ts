import { and, count, eq, gt, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from '../db/client';
import { outbox, type OutboxMail } from '../db/schema';
import type { MailTransport } from '../notify/mailer';
import { PollingWorker } from './polling-worker';

/**
 * Queues a mail; pass the transaction of the change that causes it so both commit together.
 * With `notBefore` in the future, the mail waits until then (a package whose access period
 * starts later is announced when it opens).
 */
export async function enqueueMail(db: Database, mail: OutboxMail, notBefore?: Date): Promise<void> {
  const later = notBefore !== undefined && notBefore.getTime() > Date.now();
  await db.insert(outbox).values({ payload: mail, ...(later ? { nextAttemptAt: notBefore } : {}) });
}

/**
 * Mail that should have left and has not: unsent, and due or already tried (a mail held for an
 * access period that has not started is not late). With when the oldest of it was queued.
 */
export async function outboxBacklog(
  db: Database,
): Promise<{ pending: number; oldest: Date | null }> {
  const [row] = await db
    .select({ pending: count(), oldest: min(outbox.createdAt) })
    .from(outbox)
    .where(
      and(isNull(outbox.sentAt), or(lte(outbox.nextAttemptAt, sql`now()`), gt(outbox.attempts, 0))),
    );
  return { pending: row?.pending ?? 0, oldest: row?.oldest ?? null };
}

const LEASE = sql`now() + interval '5 minutes'`;
const BATCH = 10;

/** Seconds to wait before the next attempt: 10 s doubling up to an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends what the outbox holds. A row is leased (its next attempt pushed 5 minutes out) before it
 * is sent, so several app nodes never send the same mail and a node that dies mid-send only
 * delays it. A failed send is retried with growing delays; nothing is dropped.
 */
export class OutboxSender {
  private readonly worker: PollingWorker;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly log: FastifyBaseLogger,
  ) {
    this.worker = new PollingWorker('outbox', () => this.drain(), log);
  }

  start(): void {
    this.worker.start();
  }

  /** Sends soon; called after a mail is queued so nobody waits for the poll. */
  wake(): void {
    this.worker.wake();
  }

  /** Stops the loop after the pass under way; the transport stays open (its owner closes it). */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Sends every due mail once; returns how many were sent. */
  async drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const due = await queryRows<{ id: number; payload: OutboxMail; attempts: number }>(
        this.db,
        sql`
        update ${outbox} set next_attempt_at = ${LEASE}, attempts = attempts + 1
        where id in (
          select id from ${outbox} where sent_at is null and next_attempt_at <= now()
          order by id limit ${BATCH} for update skip locked)
        returning id, payload, attempts`,
      );
      if (due.length === 0) return sent;
      for (const row of due) {
        try {
          await this.transport.send(row.payload);
          await this.db
            .update(outbox)
            .set({ sentAt: new Date(), lastError: null })
            .where(eq(outbox.id, row.id));
          sent++;
        } catch (error) {
          const delay = retryDelaySeconds(row.attempts);
          this.log.warn(
            { mailId: row.id, attempts: row.attempts, err: error },
            'mail not sent, will retry',
          );
          await this.db
            .update(outbox)
            .set({
              lastError: String(error),
              nextAttemptAt: sql`now() + make_interval(secs => ${delay})`,
            })
            .where(eq(outbox.id, row.id));
        }
      }
    }
  }
}
