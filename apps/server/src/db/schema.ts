import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ContractSettings } from '@filerunner/protocol';

// Callers always get a Buffer, whatever byte array the driver answers.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
// A set of byte ranges, merged by PostgreSQL itself: `+` unions, `@>` tests coverage.
const int8multirange = customType<{ data: string }>({ dataType: () => 'int8multirange' });
export const now = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** A person with a login. `passwordHash` stays null until the account is activated. */
export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    uid: uuid().notNull().unique().defaultRandom(),
    email: text().notNull(),
    passwordHash: text(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    mobile: text(),
    /** The zone the person chose to read dates in; '' when they chose none. */
    timezone: text().notNull().default(''),
    showSelectStorage: boolean().notNull().default(false),
    avatar: bytea(),
    avatarType: text(),
    avatarVersion: integer().notNull().default(0),
    activatedAt: timestamp({ withTimezone: true }),
    createdAt: now(),
  },
  (t) => [uniqueIndex('users_email_lower').on(sql`lower(${t.email})`)],
);

/** A login session; the cookie carries the token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: now(),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Single-use activation and password-reset tokens, stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: ['activation', 'reset'] }).notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: now(),
  },
  (t) => [index('user_tokens_user').on(t.userId, t.purpose)],
);

export const apiKeys = pgTable('api_keys', {
  id: serial().primaryKey(),
  uuid: uuid().notNull().unique().defaultRandom(),
  userId: integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  keyHash: text().notNull().unique(),
  createdAt: now(),
  revokedAt: timestamp({ withTimezone: true }),
  lastUsedAt: timestamp({ withTimezone: true }),
});

export const defaultContractSettings: ContractSettings = {
  number_of_upload_workers: 14,
  use_slab_files: false,
  can_add_ad_hoc: false,
  pin_verification: 'none',
  can_extend_expiry: false,
  notifications: [],
};

/** A contract (project): the unit that owns users, groups, packages, settings and branding. */
export const contracts = pgTable('contracts', {
  id: serial().primaryKey(),
  slug: text().notNull().unique(),
  name: text().notNull(),
  serviceId: text().notNull().default(''),
  enabled: boolean().notNull().default(true),
  /** The operator's switch for custom branding; off, the contract shows the default branding. */
  brandingEnabled: boolean().notNull().default(true),
  /**
   * The operator's limits, in bytes, on what the contract keeps in storage: the total of its live
   * packages, and any one package. Null is unlimited.
   */
  storageQuota: bigint({ mode: 'number' }),
  maxPackageSize: bigint({ mode: 'number' }),
  settings: jsonb().$type<ContractSettings>().notNull().default(defaultContractSettings),
  createdAt: now(),
});

/**
 * A user's place in a contract, with the contract-level permissions and the contract's own name
 * and mobile for the person. Accounts are shared by every contract a person is in, so a contract
 * reads the person's own name and mobile only when it brought the account to FileRunner
 * (`seesProfile`); otherwise it knows them by what its admins typed, or by the address alone.
 */
export const memberships = pgTable(
  'memberships',
  {
    id: serial().primaryKey(),
    contractId: integer()
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    admin: boolean().notNull().default(false),
    send: boolean().notNull().default(false),
    enabled: boolean().notNull().default(true),
    masterGroup: boolean().notNull().default(false),
    external: boolean().notNull().default(false),
    /** The contract's name for the person; null: the person's own (if it sees it) or the address. */
    firstName: text(),
    lastName: text(),
    /** The contract's mobile for the person (its default PIN mobile); null: as for the name. */
    mobile: text(),
    /** True when the account was created by joining this contract. */
    seesProfile: boolean().notNull().default(false),
    /** When the person first signed in (or activated) after joining; null: still invited. */
    activeSince: timestamp({ withTimezone: true }),
    createdAt: now(),
  },
  (t) => [
    uniqueIndex('memberships_contract_user').on(t.contractId, t.userId),
    // Every signed-in request reads its caller's memberships by user.
    index('memberships_user').on(t.userId),
  ],
);

export const groups = pgTable('groups', {
  id: serial().primaryKey(),
  contractId: integer()
    .notNull()
    .references(() => contracts.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  description: text().notNull().default(''),
  createdAt: now(),
});

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: integer()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    // The caller's group names, read with every signed-in request.
    index('group_members_user').on(t.userId),
  ],
);

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}

/**
 * Mail waiting to leave. A row is written in the same transaction as the change that causes it,
 * so an SMTP outage delays a mail and never loses it.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial().primaryKey(),
    kind: text({ enum: ['mail'] })
      .notNull()
      .default('mail'),
    payload: jsonb().$type<OutboxMail>().notNull(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: now(),
    sentAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: now(),
  },
  (t) => [
    index('outbox_pending')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

/** Fixed-window counters for login and forgot-password throttling, shared by every app node. */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  hits: integer().notNull(),
});

/**
 * What the running server tells the other programs on its database, by name: `public_url`, the
 * origin of the links it mails, which the admin CLI's mails use too. Written by every node as it
 * starts (nodes behind one balancer share one PUBLIC_URL).
 */
export const serverSettings = pgTable('server_settings', {
  name: text({ enum: ['public_url'] }).primaryKey(),
  value: text().notNull(),
  updatedAt: now(),
});

export type BrandingColour = 'purple' | 'orange' | 'yellow' | 'green' | 'aqua' | 'teal' | 'pink';

/** A contract's custom branding; the logo is a 160 px square JPEG made on upload. */
export const brandings = pgTable('brandings', {
  contractId: integer()
    .primaryKey()
    .references(() => contracts.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  alias: text().notNull(),
  colour: text().$type<BrandingColour>().notNull(),
  logo: bytea(),
  updatedAt: now(),
});

export type PackageStatus = 'uploading' | 'complete' | 'force_completed';

/**
 * A package of files sent under a contract. It is created 'uploading' (recipients see nothing),
 * and finalised 'complete' (every intended file stored) or 'force_completed' (sent without the
 * files that failed); only then are recipients told. `sentAt` is the moment of finalising.
 */
export const packages = pgTable(
  'packages',
  {
    id: serial().primaryKey(),
    slug: text().notNull().unique(),
    contractId: integer()
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    // Kept when the sender leaves the contract: the package stays intact.
    senderId: integer().references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull(),
    message: text().notNull().default(''),
    status: text().$type<PackageStatus>().notNull().default('uploading'),
    bytes: bigint({ mode: 'number' }).notNull().default(0),
    numFiles: integer().notNull().default(0),
    validFrom: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: now(),
    /** When the contract's notification list was told this package is about to expire. */
    expiryNotifiedAt: timestamp({ withTimezone: true }),
    /** Recipients must prove who they are with a PIN sent to their mobile before downloading. */
    pinVerify: boolean().notNull().default(false),
    /** Where the package's objects live: the chosen storage location's container, or the default. */
    container: text().notNull().default(''),
    /** Every object of the package has a key under this prefix; grants are scoped to it. */
    objectPrefix: text().notNull().default(''),
    storageAppGroupId: integer().references(() => storageAppGroups.id, { onDelete: 'set null' }),
    /** What the sender announced at creation; finalising checks the stored files against it. */
    expectedFiles: integer().notNull().default(0),
    expectedSize: bigint({ mode: 'number' }).notNull().default(0),
    /** Some file name breaks the filename constraints: recipients download it as a .tar. */
    invalidFilenames: boolean().notNull().default(false),
    /**
     * The `Idempotency-Key` the sender created it with: a retried create finds the package by it
     * instead of making a second one. Null for a create without the header.
     */
    idempotencyKey: text(),
    /**
     * SHA-256 of the create's request as validated, beside its idempotency key: a repeat with
     * the same key and another request is refused, not answered with this package.
     */
    idempotencyFingerprint: text(),
    /**
     * When the sweeper deleted the package's objects (past its expiry or its storage limit);
     * the package then reads as expired everywhere. Set once, by one node.
     */
    objectsDeletedAt: timestamp({ withTimezone: true }),
    createdAt: now(),
  },
  (t) => [
    index('packages_contract_sent').on(t.contractId, t.sentAt),
    index('packages_sender_sent').on(t.senderId, t.sentAt),
    index('packages_objects_expired')
      .on(t.expiresAt)
      .where(sql`${t.objectsDeletedAt} is null`),
    index('packages_objects_stored')
      .on(t.sentAt)
      .where(sql`${t.objectsDeletedAt} is null`),
    // The contract's live packages, summed against its storage quota at every create.
    index('packages_contract_stored')
      .on(t.contractId)
      .where(sql`${t.objectsDeletedAt} is null`),
    uniqueIndex('packages_sender_idempotency_key').on(t.senderId, t.idempotencyKey),
    index('packages_expiring')
      .on(t.expiresAt)
      .where(sql`${t.expiryNotifiedAt} is null`),
  ],
);

/** Who a package was sent to: a user of the contract, or an ad-hoc address. */
export const packageRecipients = pgTable(
  'package_recipients',
  {
    id: serial().primaryKey(),
    packageId: integer()
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    email: text().notNull(),
    removed: boolean().notNull().default(false),
    downloaded: text({ enum: ['none', 'partial', 'complete'] })
      .notNull()
      .default('none'),
    /** The number PINs go to for this package (the recipient's own, or one the sender gave). */
    mobile: text(),
    /** This recipient must verify a PIN before downloading (the contract's and sender's choice). */
    pinRequired: boolean().notNull().default(false),
    /** SHA-256 of the key in the recipient's link; set when the package is sent. */
    keyHash: text(),
    /** When this recipient last proved the PIN; downloads of a PIN package need it. */
    pinVerifiedAt: timestamp({ withTimezone: true }),
    /** Argon2id hash of the last PIN texted; null when none is pending. Only this one works. */
    pinCodeHash: text(),
    /** When that PIN was texted; it works for ten minutes from then. */
    pinSentAt: timestamp({ withTimezone: true }),
    /** Wrong PINs entered since the last right one or lock; the fifth locks the PIN. */
    pinFailures: integer().notNull().default(0),
    /** Until when PIN requests and checks are refused after too many wrong PINs. */
    pinLockedUntil: timestamp({ withTimezone: true }),
    seenAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('package_recipients_package').on(t.packageId),
    index('package_recipients_user').on(t.userId, t.packageId),
  ],
);

/**
 * A file of a package. Rows are written at creation from the sender's intended list (state
 * 'intended') and become 'stored' when the upload reports the object; the user's path is
 * metadata only, the object key is a cleaned name with a random suffix. A file packed in a slab
 * object is the byte range [slabStart, slabStart + size) of that object.
 */
export const packageFiles = pgTable(
  'package_files',
  {
    id: serial().primaryKey(),
    packageId: integer()
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    userPath: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    state: text({ enum: ['intended', 'stored'] })
      .notNull()
      .default('intended'),
    objectKey: text(),
    etag: text(),
    slabStart: bigint({ mode: 'number' }),
    /** The file's xxh128 as the sender's engine computed it (lowercase hex), for MHLs; unchecked. */
    xxh128: text(),
  },
  (t) => [uniqueIndex('package_files_path').on(t.packageId, t.userPath)],
);

/**
 * A signed, expiring permission to fetch one package's tar (or one file of it) by URL, so any
 * downloader (ranged chunks, a plain browser download) works without a session. The token is
 * stored as SHA-256 only. What is fetched with it is recorded in `downloads`.
 */
export const downloadGrants = pgTable('download_grants', {
  id: serial().primaryKey(),
  tokenHash: text().notNull().unique(),
  packageId: integer()
    .notNull()
    .references(() => packages.id, { onDelete: 'cascade' }),
  recipientId: integer()
    .notNull()
    .references(() => packageRecipients.id, { onDelete: 'cascade' }),
  /** Null for the whole package as a tar; else the one file fetched. */
  fileId: integer().references(() => packageFiles.id, { onDelete: 'cascade' }),
  /** Bytes of what this grant serves (the tar or the file). */
  size: bigint({ mode: 'number' }).notNull(),
  /** Where the grant was asked for. */
  ip: text().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: now(),
});

/**
 * One download, as the sender's download history lists it: the responses on one grant that
 * belong together (see `recordDelivery` for how they are grouped). `servedRanges` is the union
 * of byte ranges delivered whole, from which the download is partial or complete.
 */
export const downloads = pgTable(
  'downloads',
  {
    id: serial().primaryKey(),
    grantId: integer()
      .notNull()
      .references(() => downloadGrants.id, { onDelete: 'cascade' }),
    recipientId: integer()
      .notNull()
      .references(() => packageRecipients.id, { onDelete: 'cascade' }),
    /** Where its first response went. */
    ip: text().notNull(),
    bytesSent: bigint({ mode: 'number' }).notNull().default(0),
    servedRanges: int8multirange()
      .notNull()
      .default(sql`'{}'::int8multirange`),
    firstByteAt: timestamp({ withTimezone: true }).notNull(),
    lastByteAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    createdAt: now(),
  },
  (t) => [index('downloads_recipient').on(t.recipientId), index('downloads_grant').on(t.grantId)],
);

/**
 * Background work that must survive a restart (reports). Rows are claimed with a lease, like the
 * outbox, so any node may run them and a node that dies only delays them.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial().primaryKey(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    runAt: now(),
    attempts: integer().notNull().default(0),
    doneAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: now(),
  },
  (t) => [
    index('jobs_due')
      .on(t.runAt)
      .where(sql`${t.doneAt} is null`),
  ],
);

/**
 * A storage location a contract's senders may pick for a package (the spec's storage app group).
 * Each has its own container, so its objects can be placed, kept and removed apart.
 */
export const storageAppGroups = pgTable(
  'storage_app_groups',
  {
    id: serial().primaryKey(),
    contractId: integer()
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    container: text().notNull().unique(),
    createdAt: now(),
  },
  (t) => [index('storage_app_groups_contract').on(t.contractId)],
);
