import { randomBytes, randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import {
  RECEIPT_CHALLENGE_TTL_MS,
  RECEIPT_PROOF_METHOD,
  receiptMessages,
  type DeliveryReceipt,
  type ReceiptChallenge,
  type ReceiptClaims,
  type ReceiptPublicKey,
  type ReceiptRequest,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { PackageRow, RecipientRow } from '../../db/rows';
import type { deliveryReceipts } from '../../db/receipts-schema';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { assertMayDownload } from '../downloads/downloads.policy';
import { announcePackageDownloaded } from '../../realtime/announce';
import { heldTar, markDownloadedWhole } from '../downloads/downloads.service';
import { receivedByLinkKey, sentBy } from '../inbox/inbox.policy';
import { c4Id } from '../mhl/c4';
import { findRecipientAccess } from '../recipient-access/recipient-access.repository';
import { answersMatch, sampleRanges } from './receipt-challenge';
import { assertReportFits } from './receipt-report';
import {
  deliveryOf,
  insertReceipt,
  receiptsOf,
  replaceChallenge,
  takeChallenge,
} from './receipts.repository';
import { receiptKey } from './signing-key';

export async function publishedReceiptKey(ctx: AppContext): Promise<ReceiptPublicKey> {
  return (await receiptKey(ctx.db)).published;
}

/** The signed-in recipient of `slug`, who may download it now. */
async function recipientOf(ctx: AppContext, principal: Principal, slug: string) {
  const access = await findRecipientAccess(ctx.db, slug, { userId: principal.user.id });
  assertMayDownload(access);
  return access;
}

/** The holder of an external link's key, who may download the package now. */
async function linkHolderOf(ctx: AppContext, slug: string, key: string) {
  const access = await receivedByLinkKey(ctx.db, slug, key);
  assertMayDownload(access);
  return access;
}

/** A fresh receipt challenge for the signed-in recipient of `slug`, under the download rules. */
export async function challengeReceipt(ctx: AppContext, principal: Principal, slug: string) {
  const { pkg, recipient } = await recipientOf(ctx, principal, slug);
  return challengeFor(ctx, pkg, recipient);
}

/** A fresh receipt challenge for the holder of an external link's key. */
export async function challengeExternalReceipt(ctx: AppContext, slug: string, key: string) {
  const { pkg, recipient } = await linkHolderOf(ctx, slug, key);
  return challengeFor(ctx, pkg, recipient);
}

/** A receipt for the signed-in recipient of `slug`, on their answered challenge. */
export async function issueReceipt(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  request: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const { pkg, recipient } = await recipientOf(ctx, principal, slug);
  return issueFor(ctx, pkg, recipient, request);
}

/** A receipt for the holder of an external link's key, on their answered challenge. */
export async function issueExternalReceipt(
  ctx: AppContext,
  slug: string,
  key: string,
  request: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const { pkg, recipient } = await linkHolderOf(ctx, slug, key);
  return issueFor(ctx, pkg, recipient, request);
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

/** A new nonce and sample of the package's files, kept for the answer (replacing any earlier). */
async function challengeFor(
  ctx: AppContext,
  pkg: PackageRow,
  recipient: RecipientRow,
): Promise<ReceiptChallenge> {
  const { tar } = await heldTar(ctx, pkg);
  const row = await replaceChallenge(ctx.db, {
    recipientId: recipient.id,
    nonce: randomBytes(32).toString('hex'),
    ranges: sampleRanges(tar.files),
    expiresAt: new Date(Date.now() + RECEIPT_CHALLENGE_TTL_MS),
  });
  return {
    challenge: row.id,
    nonce: row.nonce,
    ranges: row.ranges,
    expires_at: row.expiresAt.toISOString(),
  };
}

/**
 * Signs what the recipient proved: their answers to the challenge match the stored bytes, and
 * their report names only the package's files. What the server wrote to sockets is not asked:
 * bytes served need not have been read, and a download resumed after a server crash has bytes
 * no record counts. The challenge is spent by any answer, right or wrong.
 */
async function issueFor(
  ctx: AppContext,
  pkg: PackageRow,
  recipient: RecipientRow,
  request: ReceiptRequest,
): Promise<DeliveryReceipt> {
  const challenge = await takeChallenge(ctx.db, recipient.id, request.challenge);
  if (!challenge) throw ApiError.detail(409, 'conflict', receiptMessages.challengeUnknown);
  const { tar } = await heldTar(ctx, pkg);
  assertReportFits(
    request,
    tar.layout.entries.map((e) => e.source.path),
  );
  if (request.answers.length !== challenge.ranges.length) {
    throw ApiError.fields({ answers: [receiptMessages.answerCount(challenge.ranges.length)] });
  }
  const matched = await answersMatch(ctx.storage, pkg, tar.files, challenge, request.answers);
  if (!matched) throw ApiError.forbidden(receiptMessages.wrongAnswers);

  const delivery = await deliveryOf(ctx.db, recipient.id, tar.layout.size);
  const report = {
    verified: request.verified,
    unverified: request.unverified,
    failed: request.failed,
  };
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
      first_byte_at: delivery.firstByteAt?.toISOString() ?? null,
      last_byte_at: delivery.lastByteAt?.toISOString() ?? null,
    },
    proof: {
      method: RECEIPT_PROOF_METHOD,
      ranges: challenge.ranges.length,
      bytes: challenge.ranges.reduce((sum, r) => sum + r.length, 0),
    },
    mhl: { name: tar.mhl.name, c4: c4Id(tar.mhl.hashList) },
    verification: report,
  };
  const key = await receiptKey(ctx.db);
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
  // The recipient holds the package: 'Downloaded' for the sender, even when no download record
  // covers it (an engine unpacking the tar skips its framing; a resumed one, what a crash lost).
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
