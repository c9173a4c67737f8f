import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { downloadGrants, downloads, packageRecipients } from '../../db/schema';

/** The package's recipients, removed ones too (their downloads stay in the history). */
export function recipientsOf(db: Database, packageId: number) {
  return db
    .select({
      id: packageRecipients.id,
      userId: packageRecipients.userId,
      email: packageRecipients.email,
    })
    .from(packageRecipients)
    .where(eq(packageRecipients.packageId, packageId))
    .orderBy(asc(packageRecipients.id));
}

/**
 * Every download of the package, oldest first, with what its grant served (the tar, or one
 * file) and the byte ranges it delivered whole, as PostgreSQL writes a multirange.
 */
export function downloadsOf(db: Database, packageId: number) {
  return db
    .select({
      id: downloads.id,
      recipientId: downloads.recipientId,
      ip: downloads.ip,
      bytesSent: downloads.bytesSent,
      servedRanges: downloads.servedRanges,
      firstByteAt: downloads.firstByteAt,
      lastByteAt: downloads.lastByteAt,
      completedAt: downloads.completedAt,
      fileId: downloadGrants.fileId,
    })
    .from(downloads)
    .innerJoin(downloadGrants, eq(downloadGrants.id, downloads.grantId))
    .where(eq(downloadGrants.packageId, packageId))
    .orderBy(asc(downloads.firstByteAt), asc(downloads.id));
}
