import { and, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client';
import { parseServedRanges, type ServedRanges } from './tar-coverage';
import type { ReceiptRange } from '@filerunner/protocol';
import { deliveryReceipts, receiptChallenges } from '../../db/receipts-schema';
import { downloadGrants, downloads, packageRecipients } from '../../db/schema';

/** What the recipient was sent of the package's tar, over every download of it they made. */
export interface Delivery {
  /** Byte ranges of the tar written whole to them. */
  readonly served: ServedRanges;
  readonly firstByteAt: Date | null;
  readonly lastByteAt: Date | null;
  /** The download whose last byte came last: the one that finished the delivery. */
  readonly lastDownloadId: number | null;
}

/**
 * The ranges of the package's tar of `size` bytes delivered whole to the recipient, over all
 * their downloads of it (a download cut off and resumed on a new grant is two records; together
 * they may cover the tar). Only ranges the server wrote to their end count.
 */
export async function deliveryOf(
  db: Database,
  recipientId: number,
  tarSize: number,
): Promise<Delivery> {
  const [row] = await queryRows<{
    served: string | null;
    first_byte_at: Date | null;
    last_byte_at: Date | null;
    last_download_id: number | null;
  }>(
    db,
    sql`
    select range_agg(${downloads.servedRanges})::text as served,
           min(${downloads.firstByteAt}) as first_byte_at,
           max(${downloads.lastByteAt}) as last_byte_at,
           (array_agg(${downloads.id} order by ${downloads.lastByteAt} desc nulls last,
                      ${downloads.id} desc))[1] as last_download_id
    from ${downloads} join ${downloadGrants} on ${downloadGrants.id} = ${downloads.grantId}
    where ${downloads.recipientId} = ${recipientId}
      and ${downloadGrants.fileId} is null and ${downloadGrants.size} = ${tarSize}`,
  );
  const served = parseServedRanges(row?.served ?? null);
  return {
    served,
    firstByteAt: row?.first_byte_at ? new Date(row.first_byte_at) : null,
    lastByteAt: row?.last_byte_at ? new Date(row.last_byte_at) : null,
    lastDownloadId: row?.last_download_id ?? null,
  };
}

export async function insertReceipt(db: Database, receipt: typeof deliveryReceipts.$inferInsert) {
  const [row] = await db.insert(deliveryReceipts).values(receipt).returning();
  return row!;
}

/** A package's receipts, newest first, with the address of the recipient each is for. */
export function receiptsOf(db: Database, packageId: number) {
  return db
    .select({ receipt: deliveryReceipts, email: packageRecipients.email })
    .from(deliveryReceipts)
    .innerJoin(packageRecipients, eq(packageRecipients.id, deliveryReceipts.recipientId))
    .where(and(eq(deliveryReceipts.packageId, packageId)))
    .orderBy(desc(deliveryReceipts.id));
}

/** Stores the recipient's new challenge in place of any earlier one (one per recipient). */
export async function replaceChallenge(
  db: Database,
  challenge: { recipientId: number; nonce: string; ranges: ReceiptRange[]; expiresAt: Date },
) {
  const [row] = await db
    .insert(receiptChallenges)
    .values(challenge)
    .onConflictDoUpdate({
      target: receiptChallenges.recipientId,
      set: {
        id: sql`gen_random_uuid()`,
        nonce: challenge.nonce,
        ranges: challenge.ranges,
        expiresAt: challenge.expiresAt,
        createdAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/**
 * Spends the recipient's open challenge, if any: called as a download of theirs starts serving
 * bytes, so a challenge can only be answered from bytes fetched before it was asked (an honest
 * engine asks once its download has ended), never by fetching just the sampled ranges after.
 */
export async function voidChallenge(db: Database, recipientId: number): Promise<void> {
  await db.delete(receiptChallenges).where(eq(receiptChallenges.recipientId, recipientId));
}

/**
 * Takes the recipient's challenge of that id for answering: deleted whatever the answer, so it
 * is answered at most once. Undefined when there is none, or it has expired.
 */
export async function takeChallenge(db: Database, recipientId: number, id: string) {
  const [row] = await db
    .delete(receiptChallenges)
    .where(and(eq(receiptChallenges.recipientId, recipientId), eq(receiptChallenges.id, id)))
    .returning();
  return row && row.expiresAt > new Date() ? row : undefined;
}
