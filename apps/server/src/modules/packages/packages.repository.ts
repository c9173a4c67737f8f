import { and, asc, eq, inArray, not, sql } from 'drizzle-orm';
import { mobileHint, packageLimits, type SenderPackage } from '@filerunner/protocol';
import { queryRows, type Database } from '../../db/client';
import type { PackageRow, RecipientRow } from '../../db/rows';
import {
  contracts,
  groupMembers,
  groups,
  memberships,
  packageFiles,
  packageRecipients,
  packages,
  users,
} from '../../db/schema';
import type { StorageDriver } from '../../storage';
import { userColumns } from '../accounts/accounts.repository';
import { displayName } from '../accounts/display-name';
import { packageSlugOfObject } from './object-names';
import type { DeclaredPathTotals } from './bulk-plan';
import { SEGMENT_COUNT_UNIT } from './declared-objects';
import { memberFirstName, memberLastName, membershipIn } from '../memberships/member-view';
import { isExpiredSql } from '../recipient-access/recipient-access.sql';

/** A package with its contract and its sender (null once the sender's account is deleted). */
export async function packageWithContract(db: Database, packageId: number) {
  const [row] = await db
    .select({ pkg: packages, contract: contracts, sender: userColumns })
    .from(packages)
    .innerJoin(contracts, eq(contracts.id, packages.contractId))
    .leftJoin(users, eq(users.id, packages.senderId))
    .where(eq(packages.id, packageId));
  return row ?? null;
}

/**
 * A package the user sent, with its contract and the user's membership of that contract (the
 * row is missing when they are no longer in it); undefined when they sent no such package.
 */
export async function sentPackageWithMembership(db: Database, senderId: number, slug: string) {
  const [row] = await db
    .select({ pkg: packages, contract: contracts, membership: memberships })
    .from(packages)
    .innerJoin(contracts, eq(contracts.id, packages.contractId))
    .innerJoin(
      memberships,
      and(eq(memberships.contractId, contracts.id), eq(memberships.userId, senderId)),
    )
    .where(and(eq(packages.slug, slug), eq(packages.senderId, senderId)));
  return row;
}

/** A package as its sender sees it (the create and finalise answers). */
export async function senderPackageView(
  db: Database,
  storage: StorageDriver,
  packageId: number,
): Promise<SenderPackage> {
  const { pkg, contract, sender } = (await packageWithContract(db, packageId))!;
  // Recipients are named as the package's contract knows them.
  const recipients = await db
    .select({
      recipient: packageRecipients,
      account: users.email,
      firstName: memberFirstName,
      lastName: memberLastName,
    })
    .from(packageRecipients)
    .leftJoin(users, eq(users.id, packageRecipients.userId))
    .leftJoin(memberships, membershipIn(contract.id))
    .where(eq(packageRecipients.packageId, packageId))
    .orderBy(asc(packageRecipients.id));
  return {
    id: pkg.id,
    slug: pkg.slug,
    name: pkg.name,
    message: pkg.message,
    status: pkg.status,
    contract: { id: contract.id, slug: contract.slug, name: contract.name },
    sender: { name: sender ? displayName(sender) : '' },
    date_sent: pkg.status === 'uploading' ? null : pkg.sentAt.toISOString(),
    valid_date: pkg.validFrom.toISOString(),
    expires_date: pkg.expiresAt.toISOString(),
    bytes: pkg.status === 'uploading' ? pkg.expectedSize : pkg.bytes,
    num_files: pkg.status === 'uploading' ? pkg.expectedFiles : pkg.numFiles,
    pin_verified: pkg.pinVerify,
    invalid_filenames: pkg.invalidFilenames,
    recipients: recipients.map(({ recipient, account, firstName, lastName }) => ({
      id: recipient.userId ?? -recipient.id,
      email: recipient.email,
      name: account ? displayName({ email: account, firstName, lastName }) : recipient.email,
      mobile_hint: recipient.mobile ? mobileHint(recipient.mobile) : null,
    })),
    storage_urls: [storage.accountUrl, ...storage.alternativeAccountUrls],
    session_id: pkg.slug,
  };
}

/**
 * Whether an object belongs to a package that has been sent: its objects are then sealed, so
 * the upload grants still valid for it may no longer replace, add or delete any of them. Read
 * from the package row (by its unique slug), so it holds from the commit that sends the package,
 * across restarts and for every process serving the store.
 */
export async function isSentPackageObject(
  db: Database,
  container: string,
  key: string,
  options: { holdRow?: boolean } = {},
): Promise<boolean> {
  const slug = packageSlugOfObject(key);
  if (!slug) return false;
  const query = db
    .select({
      status: packages.status,
      container: packages.container,
      objectPrefix: packages.objectPrefix,
    })
    .from(packages)
    .where(eq(packages.slug, slug));
  // Held until the caller's transaction ends: the package cannot be sent meanwhile.
  const [row] = options.holdRow ? await query.for('share') : await query;
  return (
    row !== undefined &&
    row.status !== 'uploading' &&
    row.container === container &&
    key.startsWith(row.objectPrefix)
  );
}

/** The package an object key lies under (by the slug in its prefix), or null. */
export async function packageOfObject(db: Database, key: string) {
  const slug = packageSlugOfObject(key);
  if (!slug) return null;
  const [row] = await db
    .select({
      id: packages.id,
      status: packages.status,
      container: packages.container,
      objectPrefix: packages.objectPrefix,
    })
    .from(packages)
    .where(eq(packages.slug, slug));
  return row ?? null;
}

/** The files the sender declared when creating the package: user path and size. */
export async function declaredFilesOf(db: Database, packageId: number) {
  return db
    .select({ userPath: packageFiles.userPath, size: packageFiles.size })
    .from(packageFiles)
    .where(eq(packageFiles.packageId, packageId));
}

/**
 * How many files the package declared, their paths' UTF-16 units (two a character at most), and
 * the objects the declaration allows with their names' units: what bounds a `bulk` body.
 */
export async function declaredPathTotals(
  db: Database,
  packageId: number,
): Promise<DeclaredPathTotals> {
  // The objects per file as `objectsAllowedFor` counts them, summed in the database.
  const objects = sql`(1 + least(${packageLimits.maxSloSegments},
    ceil(${packageFiles.size}::numeric / ${SEGMENT_COUNT_UNIT})))`;
  const [row] = await queryRows<DeclaredPathTotals>(
    db,
    sql`select count(*)::int as "files",
          coalesce(sum(char_length(${packageFiles.userPath}) * 2), 0)::int as "pathUnits",
          coalesce(sum(${objects}), 0)::bigint::float8 as "objects",
          coalesce(sum(char_length(${packageFiles.userPath}) * 2 * ${objects}), 0)::float8
            as "objectPathUnits"
        from ${packageFiles} where ${packageFiles.packageId} = ${packageId}`,
  );
  return row ?? { files: 0, pathUnits: 0, objects: 0, objectPathUnits: 0 };
}

/** Whether the member is in any of the contract's groups. */
export async function isInContractGroup(
  db: Database,
  contractId: number,
  userId: number,
): Promise<boolean> {
  const rows = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groups.contractId, contractId), eq(groupMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** The package this sender created with this idempotency key, if any, and its request's hash. */
export async function packageOfIdempotencyKey(
  db: Database,
  senderId: number,
  key: string,
): Promise<{ id: number; fingerprint: string | null } | null> {
  const [row] = await db
    .select({ id: packages.id, fingerprint: packages.idempotencyFingerprint })
    .from(packages)
    .where(and(eq(packages.senderId, senderId), eq(packages.idempotencyKey, key)));
  return row ?? null;
}

/** Inserts a package; undefined when its slug is taken (a repeated idempotency key throws). */
export async function insertPackageUnlessSlugTaken(
  db: Database,
  values: typeof packages.$inferInsert,
): Promise<PackageRow | undefined> {
  const [inserted] = await db
    .insert(packages)
    .values(values)
    .onConflictDoNothing({ target: packages.slug })
    .returning();
  return inserted;
}

// Bound parameters per statement are limited (65,535), and a package may intend 100,000 files.
const FILE_INSERT_CHUNK = 2000;

/** Records the files a package is to hold, not yet stored. */
export async function insertIntendedFiles(
  db: Database,
  packageId: number,
  files: ReadonlyArray<{ filename: string; size: number }>,
): Promise<void> {
  for (let i = 0; i < files.length; i += FILE_INSERT_CHUNK) {
    await db
      .insert(packageFiles)
      .values(
        files
          .slice(i, i + FILE_INSERT_CHUNK)
          .map((f) => ({ packageId, userPath: f.filename, size: f.size })),
      );
  }
}

export async function insertRecipients(
  db: Database,
  packageId: number,
  recipients: Array<Pick<RecipientRow, 'userId' | 'email' | 'mobile' | 'pinRequired'>>,
): Promise<void> {
  await db.insert(packageRecipients).values(recipients.map((r) => ({ packageId, ...r })));
}

/** The package's intended files with these user paths. */
export async function intendedFilesByPath(db: Database, packageId: number, paths: string[]) {
  return db
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, packageId), inArray(packageFiles.userPath, paths)));
}

/** The package's status, its row share-locked until the transaction ends. */
export async function packageStatusForShare(db: Database, packageId: number) {
  const [row] = await queryRows<{ status: PackageRow['status'] }>(
    db,
    sql`select status from ${packages} where id = ${packageId} for share`,
  );
  return row?.status;
}

/** The package's status, its row locked until the transaction ends. */
export async function packageStatusForUpdate(db: Database, packageId: number) {
  const [row] = await queryRows<{ status: PackageRow['status'] }>(
    db,
    sql`select status from ${packages} where id = ${packageId} for update`,
  );
  return row?.status;
}

/** A file found stored, as `markStored` records it. */
export interface StoredFile {
  id: number;
  objectKey: string;
  etag: string | null;
  slabStart: number | null;
  xxh128: string | null;
}

/**
 * Marks files stored in one statement, however many: a slab reports a thousand files, and a
 * statement each kept its report waiting on a thousand round trips to the database.
 */
export async function markStored(db: Database, files: StoredFile[]): Promise<void> {
  // The last report of a file wins, as it would one statement after the other.
  const byId = new Map(files.map((f) => [f.id, f]));
  const rows = [...byId.values()].map((f) => ({
    id: f.id,
    object_key: f.objectKey,
    etag: f.etag,
    slab_start: f.slabStart,
    xxh128: f.xxh128,
  }));
  const reported = sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
    as v(id integer, object_key text, etag text, slab_start bigint, xxh128 text)`;
  await db
    .update(packageFiles)
    .set({
      state: 'stored',
      objectKey: sql`v.object_key`,
      etag: sql`v.etag`,
      slabStart: sql`v.slab_start`,
      xxh128: sql`v.xxh128`,
    })
    .from(reported)
    .where(eq(packageFiles.id, sql`v.id`));
}

/** Every intended file of the package, by user path, and whether it is stored. */
export async function fileStatesOf(db: Database, packageId: number) {
  return db
    .select({
      userPath: packageFiles.userPath,
      size: packageFiles.size,
      state: packageFiles.state,
      objectKey: packageFiles.objectKey,
      etag: packageFiles.etag,
    })
    .from(packageFiles)
    .where(eq(packageFiles.packageId, packageId))
    .orderBy(asc(packageFiles.userPath));
}

/** Marks the package sent now, with what it holds; answers the sent row. */
export async function markSent(
  db: Database,
  packageId: number,
  sent: Pick<PackageRow, 'status' | 'numFiles' | 'bytes'>,
): Promise<PackageRow> {
  const [row] = await db
    .update(packages)
    .set({ ...sent, sentAt: sql`now()` })
    .where(eq(packages.id, packageId))
    .returning();
  return row!;
}

/** The package's recipients the sender has not removed, each with their account if any. */
export async function currentRecipientsOf(db: Database, packageId: number) {
  return db
    .select({ recipient: packageRecipients, user: userColumns })
    .from(packageRecipients)
    .leftJoin(users, eq(users.id, packageRecipients.userId))
    .where(and(eq(packageRecipients.packageId, packageId), eq(packageRecipients.removed, false)));
}

/**
 * The bytes the contract's live packages (not yet expired, objects not yet swept) take in
 * storage: what a sent package holds, and for one still uploading what it declared, since its
 * files may all land yet.
 */
export async function storedBytesOfContract(db: Database, contractId: number): Promise<number> {
  const [row] = await db
    .select({
      bytes: sql<string>`coalesce(sum(case when ${packages.status} = 'uploading'
        then ${packages.expectedSize} else ${packages.bytes} end), 0)`,
    })
    .from(packages)
    .where(and(eq(packages.contractId, contractId), not(isExpiredSql(packages))));
  return Number(row!.bytes);
}
