import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { FileRow, GrantRow, PackageRow, RecipientRow } from '../../db/rows';
import { queryRows } from '../../db/client';
import { downloads, packageFiles, packageRecipients, packages, users } from '../../db/schema';
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
  await db.insert(downloads).values(grant);
}

/** A grant by its token's hash, with the package and recipient as they are now. */
export async function findGrant(
  db: Database,
  tokenHash: string,
): Promise<{ grant: GrantRow; pkg: PackageRow; recipient: RecipientRow } | null> {
  const [row] = await db
    .select({ grant: downloads, pkg: packages, recipient: packageRecipients })
    .from(downloads)
    .innerJoin(packages, eq(packages.id, downloads.packageId))
    .innerJoin(packageRecipients, eq(packageRecipients.id, downloads.recipientId))
    .where(eq(downloads.tokenHash, tokenHash));
  return row ?? null;
}

/** One response's worth of a grant: the range it delivered whole (null if cut short), its bytes. */
export interface Delivery {
  /** [start, endExclusive) of the grant's bytes, when every byte of it reached the connection. */
  readonly served: { readonly start: number; readonly end: number } | null;
  readonly bytes: number;
  readonly startedAt: Date;
}

/**
 * Adds a response to its grant's record, and answers whether the grant now covers every byte.
 * PostgreSQL merges the ranges (`+` on a multirange) under the row lock, so chunks that finish
 * at the same moment each see the others' ranges.
 */
export async function recordDelivery(
  tx: Database,
  grantId: number,
  delivery: Delivery,
): Promise<{ complete: boolean }> {
  const added = delivery.served
    ? sql`int8multirange(int8range(${delivery.served.start}::bigint, ${delivery.served.end}::bigint))`
    : sql`'{}'::int8multirange`;
  const [row] = await queryRows<{ complete: boolean }>(
    tx,
    sql`
    update ${downloads} set
      served_ranges = served_ranges + ${added},
      bytes_sent = bytes_sent + ${delivery.bytes},
      first_byte_at = coalesce(first_byte_at, ${delivery.startedAt.toISOString()}::timestamptz),
      last_byte_at = now(),
      completed_at = case
        when completed_at is null and (served_ranges + ${added}) @> int8range(0, size) then now()
        else completed_at end
    where id = ${grantId}
    returning completed_at is not null as complete`,
  );
  return { complete: row?.complete ?? false };
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

/** The downloads of each recipient that moved any bytes, oldest first; grants never used are left out. */
export async function downloadsOfRecipients(
  db: Database,
  recipientIds: readonly number[],
): Promise<Map<number, RecipientDownload[]>> {
  const out = new Map<number, RecipientDownload[]>();
  if (recipientIds.length === 0) return out;
  const rows = await db
    .select()
    .from(downloads)
    .where(and(inArray(downloads.recipientId, [...recipientIds]), isNotNull(downloads.firstByteAt)))
    .orderBy(asc(downloads.firstByteAt), asc(downloads.id));
  for (const row of rows) {
    const list = out.get(row.recipientId) ?? [];
    list.push(
      recipientDownload({
        ...row,
        firstByteAt: row.firstByteAt!,
        completed: row.completedAt !== null,
      }),
    );
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
