import { randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import {
  receiptMessages,
  type DeliveryReceipt,
  type ReceiptPublicKey,
  type ReceiptRequest,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { PackageRow, RecipientRow } from '../../db/rows';
import type { deliveryReceipts } from '../../db/schema';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { assertMayDownload } from '../downloads/downloads.policy';
import { announcePackageDownloaded } from '../../realtime/announce';
import { heldTar, markDownloadedWhole } from '../downloads/downloads.service';
import { receivedByLinkKey, sentBy } from '../inbox/inbox.policy';
import { c4Id } from '../mhl/c4';
import { findRecipientAccess } from '../recipient-access/recipient-access.repository';
import { deliveryOf, insertReceipt, receiptsOf } from './receipts.repository';
import { receiptKey } from './signing-key';
import { entriesCovered } from './tar-coverage';

/** The claims a receipt signs; the names say what each is without a schema at hand. */
export interface ReceiptClaims {
  iss: string;
  iat: number;
  jti: string;
  /** The recipient's address. */
  sub: string;
  package: { slug: string; name: string; sent_at: string; files: number; tar_bytes: number };
  delivered: { bytes: number; first_byte_at: string; last_byte_at: string };
  /** The package's ASC MHL hash list, by its name and its C4 ID (as an ASC MHL chain names it). */
  mhl: { name: string; c4: string };
  /** What the recipient's engine reported of its own check; the server signs that it said so. */
  verification: { verified: number; unverified: string[]; failed: string[] };
}

export async function publishedReceiptKey(ctx: AppContext): Promise<ReceiptPublicKey> {
  return (await receiptKey(ctx.db)).published;
}

/** A receipt for the signed-in recipient of `slug`, under the download rules. */
export async function issueReceipt(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  report: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const access = await findRecipientAccess(ctx.db, slug, { userId: principal.user.id });
  assertMayDownload(access);
  return issueFor(ctx, access.pkg, access.recipient, report);
}

/** A receipt for the holder of an external link's key. */
export async function issueExternalReceipt(
  ctx: AppContext,
  slug: string,
  key: string,
  report: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const access = await receivedByLinkKey(ctx.db, slug, key);
  assertMayDownload(access);
  return issueFor(ctx, access.pkg, access.recipient, report);
}

/** The receipts of a package the caller sent. */
export async function receiptsFor(
  ctx: AppContext,
  principal: Principal,
  slug: string,
): Promise<DeliveryReceipt[]> {
  const { pkg } = await sentBy(ctx.db, principal, slug);
  const rows = await receiptsOf(ctx.db, pkg.id);
  return rows.map(({ receipt, email }) => receiptView(receipt, email));
}

/** A stored receipt as the API answers it. */
export function receiptView(
  row: typeof deliveryReceipts.$inferSelect,
  email: string,
): DeliveryReceipt {
  return {
    id: row.id,
    receipt: row.jws,
    recipient_email: email,
    issued_at: row.createdAt.toISOString(),
    bytes: row.bytes,
    verified: row.verified,
    unverified: row.unverified,
    failed: row.failed,
  };
}

/**
 * Signs what was delivered. Only a package whose files' every byte was delivered (written to its
 * end, over any number of downloads) gets a receipt: one cannot be made for bytes not sent.
 */
async function issueFor(
  ctx: AppContext,
  pkg: PackageRow,
  recipient: RecipientRow,
  report: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const { tar } = await heldTar(ctx, pkg);
  const delivery = await deliveryOf(ctx.db, recipient.id, tar.layout.size);
  if (
    !entriesCovered(delivery.served, tar.layout).every(Boolean) ||
    !delivery.firstByteAt ||
    !delivery.lastByteAt
  ) {
    throw ApiError.detail(409, 'conflict', receiptMessages.notDelivered);
  }
  const claims: ReceiptClaims = {
    iss: ctx.config.publicUrl,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    sub: recipient.email,
    package: {
      slug: pkg.slug,
      name: pkg.name,
      sent_at: pkg.sentAt.toISOString(),
      files: tar.files.length,
      tar_bytes: tar.layout.size,
    },
    delivered: {
      bytes: tar.layout.size,
      first_byte_at: delivery.firstByteAt.toISOString(),
      last_byte_at: delivery.lastByteAt.toISOString(),
    },
    mhl: { name: tar.mhl.name, c4: c4Id(tar.mhl.hashList) },
    verification: {
      verified: report.verified,
      unverified: report.unverified,
      failed: report.failed,
    },
  };
  const key = await receiptKey(ctx.db);
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
  // An engine unpacking the tar skips its framing, so no one download record may hold every
  // byte; the files' bytes all went, and that is what 'Downloaded' tells the sender.
  const row = await ctx.db.transaction(async (tx) => {
    await markDownloadedWhole(ctx, tx, pkg.id, recipient.id);
    await announcePackageDownloaded(tx, pkg.id);
    return insertReceipt(tx, {
      packageId: pkg.id,
      recipientId: recipient.id,
      downloadId: delivery.lastDownloadId,
      jws,
      bytes: tar.layout.size,
      verified: report.verified,
      unverified: report.unverified.length,
      failed: report.failed.length,
    });
  });
  return receiptView(row, recipient.email);
}
