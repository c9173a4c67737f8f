import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatDateTime, limits } from '@filerunner/protocol';
import type { Config } from '../config';
import { queryRows, type Database } from '../db/client';
import { packages } from '../db/schema';
import { notifyContractWatchers } from '../modules/activity';
import { PollingWorker } from './polling-worker';
import { senderName } from '../modules/accounts';
import { packageWithContract } from '../modules/packages';

const SWEEP_MS = 5 * 60_000;

/**
 * Tells each contract's notification list once about every package entering its last
 * `expiringSoonHours`. A package is marked in the same transaction that queues the mails, and
 * rows are taken with SKIP LOCKED, so several nodes never announce a package twice.
 */
export class ExpirySweeper {
  private readonly worker: PollingWorker;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    log: FastifyBaseLogger,
  ) {
    this.worker = new PollingWorker('expiry sweep', () => this.sweep(), log, SWEEP_MS);
  }

  start(): void {
    this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Announces the packages expiring soon that were not announced yet; returns how many. */
  async sweep(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = await queryRows<{ id: number }>(
        tx,
        sql`
        update ${packages} set expiry_notified_at = now()
        where id in (
          select id from ${packages}
          where expiry_notified_at is null and status <> 'uploading' and expires_at > now()
            and expires_at <= now() + make_interval(hours => ${limits.expiringSoonHours})
          order by expires_at limit 100 for update skip locked)
        returning id`,
      );
      for (const { id } of due) {
        const row = await packageWithContract(tx, id);
        if (!row) continue;
        await notifyContractWatchers(tx, this.config, row.contract, 'expiring', {
          name: row.pkg.name,
          senderName: senderName(row.sender),
          detail: (zone) => `It expires at ${formatDateTime(row.pkg.expiresAt, zone)} (${zone}).`,
        });
      }
      return due.length;
    });
  }
}
