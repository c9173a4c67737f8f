import { and, eq, lt, not, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { packageRecipients } from '../../db/schema';
import { pinLockedOutSql } from '../recipient-access/recipient-access.sql';

/** Makes `codeHash` the recipient's only working PIN, from `sentAt`. */
export async function storePin(
  db: Database,
  recipientId: number,
  codeHash: string,
  sentAt: Date,
): Promise<void> {
  await db
    .update(packageRecipients)
    .set({ pinCodeHash: codeHash, pinSentAt: sentAt })
    .where(eq(packageRecipients.id, recipientId));
}

/**
 * Counts one check of the PIN `codeHash` before it is made, and answers the failures so far
 * (this check included), or null when the PIN is locked or was replaced meanwhile. Counting
 * first, in one statement, means parallel guesses cannot get more checks than the limit.
 */
export async function claimCheck(
  db: Database,
  recipientId: number,
  codeHash: string,
  maxFailures: number,
  now: Date,
): Promise<number | null> {
  const [row] = await db
    .update(packageRecipients)
    .set({ pinFailures: sql`${packageRecipients.pinFailures} + 1` })
    .where(
      and(
        eq(packageRecipients.id, recipientId),
        eq(packageRecipients.pinCodeHash, codeHash),
        lt(packageRecipients.pinFailures, maxFailures),
        not(pinLockedOutSql(packageRecipients, now)),
      ),
    )
    .returning({ failures: packageRecipients.pinFailures });
  return row ? row.failures : null;
}

/**
 * The right PIN: the recipient is verified and the PIN is used up. False when another PIN was
 * sent since the check began (only the last one sent works).
 */
export async function markVerified(
  db: Database,
  recipientId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const changed = await db
    .update(packageRecipients)
    .set({ pinVerifiedAt: now, pinCodeHash: null, pinSentAt: null, pinFailures: 0 })
    .where(and(eq(packageRecipients.id, recipientId), eq(packageRecipients.pinCodeHash, codeHash)))
    .returning({ id: packageRecipients.id });
  return changed.length > 0;
}

/** Too many wrong PINs: the pending PIN is dropped and no check or send is taken until `until`. */
export async function lockPin(db: Database, recipientId: number, until: Date): Promise<void> {
  await db
    .update(packageRecipients)
    .set({ pinLockedUntil: until, pinCodeHash: null, pinSentAt: null, pinFailures: 0 })
    .where(eq(packageRecipients.id, recipientId));
}
