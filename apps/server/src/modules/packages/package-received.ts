import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { PackageRow } from '../../db/rows';
import type { JobHandler } from '../../jobs/job-runner';
import { announcePackageReceived } from '../../realtime/announce';

/** The job that tells open inboxes about a package once its access period has started. */
export const PACKAGE_RECEIVED_JOB = 'package_received';

/**
 * When recipients may hear of the package: its access period's start when that is still to
 * come, else undefined (now). Until then the package is not theirs to open (the API answers
 * 404), so a mail or an event before it would lead them to nothing.
 */
export function opensLater(pkg: Pick<PackageRow, 'validFrom'>): Date | undefined {
  return pkg.validFrom.getTime() > Date.now() ? pkg.validFrom : undefined;
}

/**
 * Tells the open inboxes of the package's recipients (or of `userIds`) about it: in the
 * caller's transaction when its access period has started, else by a job at its start.
 */
export async function announceWhenOpen(
  ctx: Pick<AppContext, 'jobs'>,
  tx: Database,
  pkg: Pick<PackageRow, 'id' | 'validFrom'>,
  userIds?: number[],
): Promise<void> {
  const start = opensLater(pkg);
  if (!start) return announcePackageReceived(tx, pkg.id, userIds);
  await ctx.jobs.enqueue(
    tx,
    PACKAGE_RECEIVED_JOB,
    { packageId: pkg.id, ...(userIds ? { userIds } : {}) },
    start,
  );
}

/** Runs in the job's transaction, so the event leaves when the job is marked done. */
export const announceReceivedJob: JobHandler = async (db, payload) => {
  const userIds = Array.isArray(payload.userIds) ? payload.userIds.map(Number) : undefined;
  await announcePackageReceived(db, Number(payload.packageId), userIds);
};
