import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { packageLimits } from '@filerunner/protocol';
import { queryRows, type Database } from '../db/client';
import { packages } from '../db/schema';
import type { StorageDriver } from '../storage';
import { sweepProbes } from '../modules/preflight';
import { PollingWorker } from './polling-worker';

const BATCH = 20;

export interface ObjectSweeperOptions {
  /** Between two passes; OBJECT_SWEEP_SECONDS, 5 minutes by default. */
  intervalMs?: number;
  /** Told how many packages a pass swept (the metrics count them per node). */
  onSwept?: (packages: number) => void;
}

/**
 * Deletes the objects of packages past their end or their storage limit (`accessPeriodMaxDays`
 * after sending, whatever the access period says), one prefix delete per package. The package
 * row stays, reading as expired everywhere: its end moves to the moment of the sweep. Rows are
 * claimed with SKIP LOCKED and marked in the transaction that deletes, so however many nodes
 * sweep, each package is swept once; a failed delete rolls back and is tried on the next pass.
 */
export class ObjectSweeper {
  private readonly worker: PollingWorker;

  constructor(
    private readonly db: Database,
    private readonly storage: StorageDriver,
    log: FastifyBaseLogger,
    private readonly options: ObjectSweeperOptions = {},
  ) {
    const every = options.intervalMs ?? 5 * 60_000;
    this.worker = new PollingWorker('object sweep', () => this.sweep(), log, every);
  }

  start(): void {
    this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  /**
   * Sweeps the packages due now, a batch per transaction, and the pre-flight probes whose grant
   * has ended; answers how many packages were swept.
   */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const n = await this.sweepBatch();
      if (n > 0) this.options.onSwept?.(n);
      swept += n;
      if (n < BATCH) break;
    }
    await sweepProbes(this.storage);
    return swept;
  }

  private sweepBatch(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = await queryRows<{ id: number; container: string; object_prefix: string }>(
        tx,
        sql`
        update ${packages} set objects_deleted_at = now(), expires_at = least(expires_at, now())
        where id in (
          select id from ${packages}
          where objects_deleted_at is null
            and (expires_at <= now()
              or sent_at <= now() - make_interval(days => ${packageLimits.accessPeriodMaxDays}))
          order by id limit ${BATCH} for update skip locked)
        returning id, container, object_prefix`,
      );
      for (const pkg of due) {
        // A package created before its container was chosen has nothing stored to delete.
        if (!pkg.container || !pkg.object_prefix) continue;
        await this.storage.deletePrefix(pkg.container, pkg.object_prefix);
      }
      return due.length;
    });
  }
}
