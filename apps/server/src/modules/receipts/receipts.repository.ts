import { and, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client';
import { deliveryReceipts, downloadGrants, downloads, packageRecipients } from '../../db/schema';

/** What the recipient was sent of the package's tar, over every download of it they made. */
export interface Delivery {
  readonly complete: boolean;
  readonly firstByteAt: Date | null;
  readonly lastByteAt: Date | null;
}

/**
 * Whether every byte of the package's tar of `size` bytes was delivered whole to the recipient,
 * over all their downloads of it (a download cut off and resumed on a new grant is two records;
 * together they may cover the tar). Only ranges the server wrote to their end count.
 */
export async function deliveryOf(
  db: Database,
  recipientId: number,
  tarSize: number,
): Promise<Delivery> {
  const [row] = await queryRows<{
    complete: boolean | null;
    first_byte_at: Date | null;
    last_byte_at: Date | null;
  }>(
    db,
    sql`
    select int8multirange(int8range(0, ${tarSize})) <@ range_agg(${downloads.servedRanges}) as complete,
           min(${downloads.firstByteAt}) as first_byte_at,
           max(${downloads.lastByteAt}) as last_byte_at
    from ${downloads} join ${downloadGrants} on ${downloadGrants.id} = ${downloads.grantId}
    where ${downloads.recipientId} = ${recipientId}
      and ${downloadGrants.fileId} is null and ${downloadGrants.size} = ${tarSize}`,
  );
  return {
    complete: row?.complete === true,
    firstByteAt: row?.first_byte_at ? new Date(row.first_byte_at) : null,
    lastByteAt: row?.last_byte_at ? new Date(row.last_byte_at) : null,
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
