import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { PackageRow, RecipientRow, UserRow } from '../../db/rows';
import { packageRecipients } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { packageReceivedMail } from '../../notify/package-mails';
import { opensLater } from './package-received';

/**
 * Gives a recipient a fresh link key (only its hash is kept) and queues the mail that carries
 * it, in the caller's transaction: people with an account open the package in their inbox,
 * everyone else by the external link with their own key. Used when a package is sent and when
 * recipients are added to it later.
 */
export async function keyAndMailRecipient(
  ctx: AppContext,
  tx: Database,
  input: {
    recipient: Pick<RecipientRow, 'id' | 'email' | 'pinRequired'>;
    user: Pick<UserRow, 'firstName' | 'activatedAt' | 'timezone'> | null;
    pkg: PackageRow;
    senderName: string;
    contractName: string;
    /** The text of the mail, when not the package's own message. */
    message?: string;
  },
): Promise<void> {
  const { recipient, user, pkg } = input;
  const key = newToken();
  await tx
    .update(packageRecipients)
    .set({ keyHash: tokenHash(key) })
    .where(eq(packageRecipients.id, recipient.id));
  const link = user?.activatedAt
    ? `${ctx.config.publicUrl}/inbox/${pkg.slug}`
    : `${ctx.config.publicUrl}/inbox/external/${pkg.slug}?key=${key}`;
  await ctx.mailbox.queue(
    tx,
    packageReceivedMail({
      to: {
        email: recipient.email,
        firstName: user?.firstName ?? '',
        timeZone: user?.timezone ?? '',
      },
      link,
      senderName: input.senderName,
      contractName: input.contractName,
      pkg: { ...pkg, message: input.message ?? pkg.message },
      pinRequired: recipient.pinRequired,
    }),
    // Sent when the recipient can open the package, not before.
    { notBefore: opensLater(pkg) },
  );
}
