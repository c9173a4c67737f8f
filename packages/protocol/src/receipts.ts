import { z } from 'zod';
import { defineRoute } from './api/route';
import { int32Max, slugParam, text } from './api/fields';
import { isPackagePath } from './package-paths';

/**
 * Signed delivery receipts. A receipt rests on proof that the recipient's client holds the
 * package's bytes, not on what the server wrote to a socket: the client asks a challenge (a fresh
 * nonce and a random sample of ranges across the package's files), reads each range back from
 * the files it wrote, and answers SHA-256(nonce || bytes) per range with its verification report.
 * The server reads the same ranges from storage and signs (a JWS, EdDSA over Ed25519) only when
 * every answer matches. Anyone checks a receipt against the published key with a JOSE library or
 * `openssl`; the sender lists and downloads them.
 */

export const receiptMessages = {
  challengeUnknown:
    'This receipt challenge is unknown, already answered or expired: ask for a new one.',
  wrongAnswers:
    "The answers do not match the package's bytes: the files read back are not the ones sent, so no receipt was signed.",
  answerCount: (expected: number) => `Answer each of the challenge's ${expected} ranges, in order.`,
  verifiedTooMany: (files: number) =>
    `The package has ${files} files (its hash list included): no more can have been verified.`,
  notInPackage: (path: string) => `${path} is not a file of this package.`,
  namedTwice: (path: string) => `${path} is reported twice.`,
  tooManyFiles: (files: number) => `The report counts more files than the package's ${files}.`,
} as const;

/** At most this many ranges are sampled for one challenge. */
export const RECEIPT_CHALLENGE_RANGES = 16;
/** A sampled range is at most this long (the whole file when it is shorter). */
export const RECEIPT_RANGE_BYTES = 64 * 1024;
/** A challenge must be answered within this long. */
export const RECEIPT_CHALLENGE_TTL_MS = 5 * 60_000;
/** What a receipt's `proof.method` names: SHA-256 over the nonce's bytes, then the range's. */
export const RECEIPT_PROOF_METHOD = 'sampled-ranges-sha256';

/** A file's path in the package, as the engine names it. */
const userPath = text().max(4096).refine(isPackagePath, 'Not a path of this package.');

/** A range of one of the package's files the client must read back: `length` bytes at `offset`. */
export const receiptRange = z.object({
  /** The file's path as the package (and the download grant) lists it. */
  path: z.string(),
  offset: z.number().int().min(0),
  length: z.number().int().min(1),
});
export type ReceiptRange = z.infer<typeof receiptRange>;

/**
 * A receipt challenge: answer each range, in order, with the lowercase hex SHA-256 of the
 * nonce's bytes (hex-decoded) followed by the range's bytes. Single use, short-lived.
 */
export const receiptChallenge = z.object({
  challenge: z.string(),
  /** 32 random bytes, as 64 lowercase hex digits. */
  nonce: z.string(),
  ranges: z.array(receiptRange),
  expires_at: z.string(),
});
export type ReceiptChallenge = z.infer<typeof receiptChallenge>;

/**
 * The receipt request: the answered challenge, and what the recipient's engine found when it
 * checked the files against their recorded hashes. Counts are over the tar's members: the
 * package's files and the hash list the server adds to it.
 */
export const receiptRequest = z.object({
  /** The challenge's id, as it was handed out. */
  challenge: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  /** SHA-256(nonce || bytes) of each challenged range, in the challenge's order, as hex. */
  answers: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(RECEIPT_CHALLENGE_RANGES),
  /** Files whose xxh128 matched the one recorded at upload. */
  verified: z.number().int().min(0).max(int32Max),
  /** Files with no recorded hash, written but not checked. */
  unverified: z.array(userPath).max(100_000).default([]),
  /** Files that did not match or could not be written. */
  failed: z.array(userPath).max(100_000).default([]),
});
export type ReceiptRequest = z.infer<typeof receiptRequest>;

/** The engine's report, as the server sends it back into the receipt's claims. */
export type ReceiptReport = Pick<ReceiptRequest, 'verified' | 'unverified' | 'failed'>;

/**
 * What a receipt's payload says; the names say what each is without a schema at hand. It proves
 * that the recipient's client, at `iat`, answered a challenge over `proof.ranges` random ranges
 * (`proof.bytes` bytes) of the stored files with their exact bytes: that it held them. It does
 * not prove who looked at them, that every byte was read back, nor what the engine reported
 * (`verification` is the engine's own word, bounded by the package, signed as said).
 */
export interface ReceiptClaims {
  iss: string;
  iat: number;
  jti: string;
  /** The recipient's address. */
  sub: string;
  package: { slug: string; name: string; sent_at: string; files: number; tar_bytes: number };
  /** The package's tar size, and the recorded downloads' first and last bytes (null if none). */
  delivered: { bytes: number; first_byte_at: string | null; last_byte_at: string | null };
  proof: { method: typeof RECEIPT_PROOF_METHOD; ranges: number; bytes: number };
  /** The package's ASC MHL hash list, by its name and its C4 ID (as an ASC MHL chain names it). */
  mhl: { name: string; c4: string };
  /** What the recipient's engine reported of its own check; the server signs that it said so. */
  verification: ReceiptReport;
}

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
  challenge: defineRoute({
    method: 'POST',
    path: '/packages/:slug/receipt/challenge/',
    summary: 'A fresh challenge the caller answers from the files it downloaded, for a receipt',
    auth: 'user',
    params: slugOnly,
    status: 201,
    response: receiptChallenge,
  }),
  challengeExternal: defineRoute({
    method: 'POST',
    path: '/packages/external/:slug/receipt/challenge/',
    summary: "A fresh receipt challenge for a link holder's download",
    auth: 'public',
    params: slugOnly,
    query: z.object({ key: text().min(1).max(200) }),
    status: 201,
    response: receiptChallenge,
  }),
  issue: defineRoute({
    method: 'POST',
    path: '/packages/:slug/receipt/',
    summary: "A signed receipt of the caller's download, on a correctly answered challenge",
    auth: 'user',
    params: slugOnly,
    body: receiptRequest,
    status: 201,
    response: deliveryReceipt,
  }),
  issueExternal: defineRoute({
    method: 'POST',
    path: '/packages/external/:slug/receipt/',
    summary: "A signed receipt of a link holder's download, on a correctly answered challenge",
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
