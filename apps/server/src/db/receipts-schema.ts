import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ReceiptRange } from '@filerunner/protocol';
import { downloads, now, packageRecipients, packages } from './schema';

// The tables of delivery receipts (modules/receipts/): the key they are signed with, the
// challenges a recipient answers, the receipts issued. A file of their own beside schema.ts,
// which drizzle-kit reads with it (drizzle.config.ts).

/**
 * Keys the server signs with, one per purpose, shared by every node. Made on first use; the
 * private key (PKCS #8, PEM) is the one secret here that must stay usable, not hashed: never
 * selected into a log or an answer.
 */
export const signingKeys = pgTable('signing_keys', {
  purpose: text({ enum: ['receipts'] }).primaryKey(),
  /** RFC 7638 thumbprint of the public key: the `kid` of what it signs. */
  kid: text().notNull(),
  privateKeyPem: text().notNull(),
  publicKeyPem: text().notNull(),
  createdAt: now(),
});

/**
 * A receipt challenge handed to a recipient and not yet answered: the nonce and the ranges their
 * answer must hash. One per recipient (a new one replaces it), deleted when answered, refused
 * once expired: the table holds at most a row per recipient.
 */
export const receiptChallenges = pgTable('receipt_challenges', {
  id: uuid().primaryKey().defaultRandom(),
  recipientId: integer()
    .notNull()
    .unique()
    .references(() => packageRecipients.id, { onDelete: 'cascade' }),
  /** 32 random bytes as hex: no credential (an answer also needs the bytes), kept to check it. */
  nonce: text().notNull(),
  ranges: jsonb().$type<ReceiptRange[]>().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: now(),
});

/** A signed receipt of a recipient's complete download of a package, as issued. */
export const deliveryReceipts = pgTable(
  'delivery_receipts',
  {
    id: serial().primaryKey(),
    packageId: integer()
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    recipientId: integer()
      .notNull()
      .references(() => packageRecipients.id, { onDelete: 'cascade' }),
    /**
     * The download that delivered the package's last bytes before the receipt was asked for:
     * the one the sender's download history shows it against. Null if that record is gone.
     */
    downloadId: integer().references(() => downloads.id, { onDelete: 'set null' }),
    /** The compact JWS, exactly as handed out. */
    jws: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull(),
    verified: integer().notNull(),
    unverified: integer().notNull(),
    failed: integer().notNull(),
    createdAt: now(),
  },
  (t) => [index('delivery_receipts_package').on(t.packageId)],
);
