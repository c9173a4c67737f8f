import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { FileRow, GrantRow, PackageRow, RecipientRow } from '../../db/rows';
import { queryRows } from '../../db/client';
import {
  downloadGrants,
  downloads,
  packageFiles,
  packageRecipients,
  packages,
  users,
} from '../../db/schema';
import { userColumns } from '../accounts/accounts.repository';
import { packageWithContract } from '../packages/packages.repository';

/** The stored files of a package, the ones a download serves. */
export async function storedFiles(db: Database, packageId: number): Promise<FileRow[]> {
  return db
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, packageId), eq(packageFiles.state, 'stored')))
    .orderBy(asc(packageFiles.id));
}

/** One stored file of a package, by its user path or its id, or null. */
export async function storedFile(
  db: Database,
  packageId: number,
  which: { userPath: string } | { id: number },
): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(packageFiles)
    .where(
      and(
        eq(packageFiles.packageId, packageId),
        'id' in which ? eq(packageFiles.id, which.id) : eq(packageFiles.userPath, which.userPath),
        eq(packageFiles.state, 'stored'),
      ),
    );
  return row ?? null;
}

export async function insertGrant(
  db: Database,
  grant: Pick<
    GrantRow,
    'tokenHash' | 'packageId' | 'recipientId' | 'fileId' | 'size' | 'ip' | 'expiresAt'
  >,
): Promise<void> {
  await db.insert(downloadGrants).values(grant);
}

/** A grant by its token's hash, with the package and recipient as they are now. */
export async function findGrant(
  db: Database,
  tokenHash: string,
): Promise<{ grant: GrantRow; pkg: PackageRow; recipient: RecipientRow } | null> {
  const [row] = await db
    .select({ grant: downloadGrants, pkg: packages, recipient: packageRecipients })
    .from(downloadGrants)
    .innerJoin(packages, eq(packages.id, downloadGrants.packageId))
    .innerJoin(packageRecipients, eq(packageRecipients.id, downloadGrants.recipientId))
    .where(eq(downloadGrants.tokenHash, tokenHash));
  return row ?? null;
}

/** One response's worth of a grant: the range it handed to the connection, and its bytes. */
export interface Delivery {
  /**
   * [start, endExclusive) of the grant's bytes handed to the connection: the whole range when the
   * body was written to its end, the prefix before the cut otherwise; null when nothing went.
   */
  readonly served: { readonly start: number; readonly end: number } | null;
  readonly bytes: number;
  readonly startedAt: Date;
  /** Where the response went. */
  readonly ip: string;
}

/**
 * Adds a response to the download it belongs to, and answers whether that download now covers
 * every byte and whether the response started it (a new download record). Responses on one grant are one download while it is unfinished and each brings
 * bytes it has not delivered yet: the parallel ranged chunks of the download engine, or a
 * browser resuming a cut-off download. A response once the download is complete, or one that
 * brings only bytes it already delivered (a range asked twice), starts a download of its own,
 * with its own bytes and duration. A resume may overlap what a cut response counted (that
 * prefix can include bytes the peer never read, see the download route), so overlapping is
 * not enough to start another. Grouping by the grant rather than by
 * an id the client sends keeps plain browser downloads and their resumes, which can send no
 * header of ours, in one record. The grant's row lock makes chunks that finish together agree
 * on their download, and PostgreSQL merges the ranges (`+` on a multirange).
 */
export async function recordDelivery(
  tx: Database,
  grant: { id: number; recipientId: number; size: number },
  delivery: Delivery,
): Promise<{ complete: boolean; started: boolean }> {
  if (delivery.bytes === 0 && !delivery.served) return { complete: false, started: false };
  const added = delivery.served
    ? sql`int8multirange(int8range(${delivery.served.start}::bigint, ${delivery.served.end}::bigint))`
    : sql`'{}'::int8multirange`;
  await tx
    .select({ id: downloadGrants.id })
    .from(downloadGrants)
    .where(eq(downloadGrants.id, grant.id))
    .for('update');
  const [latest] = await queryRows<{ id: number; continues: boolean }>(
    tx,
    sql`
    select id, completed_at is null
      and (isempty(${added}) or not (served_ranges @> ${added})) as continues
    from ${downloads} where grant_id = ${grant.id} order by id desc limit 1`,
  );
  const whole = (ranges: SQL) => sql`${ranges} @> int8range(0, ${grant.size}::bigint)`;
  const [row] = latest?.continues
    ? await queryRows<{ complete: boolean }>(
        tx,
        sql`
        update ${downloads} set
          served_ranges = served_ranges + ${added},
          bytes_sent = bytes_sent + ${delivery.bytes},
          last_byte_at = now(),
          completed_at = case
            when completed_at is null and ${whole(sql`(served_ranges + ${added})`)} then now()
            else completed_at end
        where id = ${latest.id}
        returning completed_at is not null as complete`,
      )
    : await queryRows<{ complete: boolean }>(
        tx,
        sql`
        insert into ${downloads}
          (grant_id, recipient_id, ip, bytes_sent, served_ranges, first_byte_at, last_byte_at,
           completed_at)
        values (${grant.id}, ${grant.recipientId}, ${delivery.ip}, ${delivery.bytes}, ${added},
          ${delivery.startedAt.toISOString()}::timestamptz, now(),
          case when ${whole(added)} then now() end)
        returning completed_at is not null as complete`,
      );
  return { complete: row?.complete ?? false, started: !latest?.continues };
}

/**
 * Marks the recipient 'complete', answering true only for the call that changed it, so however
 * many chunks finish together, one of them tells the watchers.
 */
export async function markRecipientComplete(tx: Database, recipientId: number): Promise<boolean> {
  const changed = await tx
    .update(packageRecipients)
    .set({ downloaded: 'complete' })
    .where(
      and(
        eq(packageRecipients.id, recipientId),
        sql`${packageRecipients.downloaded} <> 'complete'`,
      ),
    )
    .returning({ id: packageRecipients.id });
  return changed.length > 0;
}

/** Marks a recipient who had downloaded nothing as 'partial' (never lowers 'complete'). */
export async function markRecipientPartial(tx: Database, recipientId: number): Promise<void> {
  await tx
    .update(packageRecipients)
    .set({ downloaded: 'partial' })
    .where(and(eq(packageRecipients.id, recipientId), eq(packageRecipients.downloaded, 'none')));
}

/** How many stored files the package has (a single-file download of a one-file package is whole). */
export async function storedFileCount(db: Database, packageId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, packageId), eq(packageFiles.state, 'stored')));
  return row?.count ?? 0;
}

/** What the 'downloaded' notice needs: the contract, the package, its sender and the recipient. */
export async function downloadNoticeFacts(db: Database, packageId: number, recipientId: number) {
  const row = await packageWithContract(db, packageId);
  const [recipient] = await db
    .select({ email: packageRecipients.email, user: userColumns })
    .from(packageRecipients)
    .leftJoin(users, eq(users.id, packageRecipients.userId))
    .where(eq(packageRecipients.id, recipientId));
  if (!row || !recipient) return null;
  return { ...row, recipient };
}

/** One download as the sender's recipient list shows it (a recipient's download history). */
export interface RecipientDownload {
  /** When the first byte left, ISO 8601. */
  min_ts: string;
  ip: string;
  bytes: number;
  /** Seconds from the first byte to the last. */
  duration: number;
  /** False once every byte of the grant has been delivered. */
  is_partial: boolean;
  /** When the last byte left, ISO 8601. */
  timestamp: string;
}

/** The downloads of each recipient, oldest first (a grant never used has none). */
export async function downloadsOfRecipients(
  db: Database,
  recipientIds: readonly number[],
): Promise<Map<number, RecipientDownload[]>> {
  const out = new Map<number, RecipientDownload[]>();
  if (recipientIds.length === 0) return out;
  const rows = await db
    .select()
    .from(downloads)
    .where(inArray(downloads.recipientId, [...recipientIds]))
    .orderBy(asc(downloads.firstByteAt), asc(downloads.id));
  for (const row of rows) {
    const list = out.get(row.recipientId) ?? [];
    list.push(recipientDownload({ ...row, completed: row.completedAt !== null }));
    out.set(row.recipientId, list);
  }
  return out;
}

/** One download that moved bytes, as the sender's recipient list shows it. */
export function recipientDownload(row: {
  firstByteAt: Date;
  lastByteAt: Date | null;
  ip: string;
  bytesSent: number;
  completed: boolean;
}): RecipientDownload {
  const first = row.firstByteAt;
  const last = row.lastByteAt ?? first;
  return {
    min_ts: first.toISOString(),
    ip: row.ip,
    bytes: row.bytesSent,
    duration: Math.max(0, (last.getTime() - first.getTime()) / 1000),
    is_partial: !row.completed,
    timestamp: last.toISOString(),
  };
}
