import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';
import { isPackagePath } from './package-paths';

/**
 * Signed delivery receipts: when a recipient's download of a whole package is complete, their
 * engine reports what it verified and the server signs a receipt (a JWS, EdDSA over Ed25519) of
 * what it delivered: the package, the recipient, the time, the bytes, the hash list's C4 ID and
 * the engine's verification. Anyone checks one against the published key with a JOSE library or
 * `openssl`; the sender lists and downloads them.
 */

export const receiptMessages = {
  notDelivered:
    'There is no complete download of this package to give a receipt for: download every byte first.',
} as const;

/** A file's path in the package, as the engine names it. */
const userPath = text().max(4096).refine(isPackagePath, 'Not a path of this package.');

/** What the recipient's engine found when it checked the files against their recorded hashes. */
export const receiptRequest = z.object({
  /** Files whose xxh128 matched the one recorded at upload. */
  verified: z.number().int().min(0),
  /** Files with no recorded hash, written but not checked. */
  unverified: z.array(userPath).max(100_000).default([]),
  /** Files that did not match or could not be written. */
  failed: z.array(userPath).max(100_000).default([]),
});
export type ReceiptRequest = z.infer<typeof receiptRequest>;

/** A receipt: its compact JWS and what it says, for listing. */
export const deliveryReceipt = z.object({
  id: z.number(),
  /** The compact JWS (header.payload.signature); its payload is `ReceiptClaims`. */
  receipt: z.string(),
  recipient_email: z.string(),
  issued_at: z.string(),
  bytes: z.number(),
  verified: z.number(),
  unverified: z.number(),
  failed: z.number(),
});
export type DeliveryReceipt = z.infer<typeof deliveryReceipt>;

/** The key receipts are signed with: as a JWK (for JOSE libraries) and as PEM (for openssl). */
export const receiptPublicKey = z.object({
  kid: z.string(),
  alg: z.literal('EdDSA'),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() }),
  pem: z.string(),
});
export type ReceiptPublicKey = z.infer<typeof receiptPublicKey>;

const slugOnly = z.object({ slug: slugParam });

export const receiptRoutes = {
  publicKey: defineRoute({
    method: 'GET',
    path: '/receipts/public-key/',
    summary: 'The public key delivery receipts are signed with (JWK and PEM)',
    auth: 'public',
    status: 200,
    response: receiptPublicKey,
  }),
  issue: defineRoute({
    method: 'POST',
    path: '/packages/:slug/receipt/',
    summary: "A signed receipt of the caller's complete download of the package",
    auth: 'user',
    params: slugOnly,
    body: receiptRequest,
    status: 201,
    response: deliveryReceipt,
  }),
  issueExternal: defineRoute({
    method: 'POST',
    path: '/packages/external/:slug/receipt/',
    summary: "A signed receipt of a link holder's complete download of the package",
    auth: 'public',
    params: slugOnly,
    query: z.object({ key: text().min(1).max(200) }),
    body: receiptRequest,
    status: 201,
    response: deliveryReceipt,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/packages/:slug/receipts/',
    summary: 'The delivery receipts of a package, for its sender',
    auth: 'user',
    params: slugOnly,
    status: 200,
    response: z.array(deliveryReceipt),
  }),
};
