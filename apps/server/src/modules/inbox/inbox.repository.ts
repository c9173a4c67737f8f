import { and, asc, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { MembershipRow, RecipientRow } from '../../db/rows';
import {
  contracts,
  memberships,
  packageFiles,
  packageRecipients,
  packages,
  users,
} from '../../db/schema';
import type { RecipientAccess } from '../recipient-access/recipient-access.repository';
import { userColumns } from '../accounts/accounts.repository';
import { memberActive, memberFirstName, memberLastName } from '../memberships/member-view';
import type { SentRecipientView } from './inbox.columns';

/** A package with what every view of it shows: its contract and sender. */
export type PackageFacts = Omit<RecipientAccess, 'recipient'>;

/** A package as one recipient has it. */
export type ReceivedRow = RecipientAccess;

/**
 * The caller's sent packages (never one still uploading), with their membership of the
 * package's contract (null when they have left it). `slug` picks one; otherwise one page of
 * the contract's (or all), newest first.
 */
function sentSelect(db: Database, senderId: number) {
  return db
    .select({ pkg: packages, contract: contracts, sender: userColumns, membership: memberships })
    .from(packages)
    .innerJoin(contracts, eq(contracts.id, packages.contractId))
    .leftJoin(users, eq(users.id, packages.senderId))
    .leftJoin(
      memberships,
      and(eq(memberships.contractId, packages.contractId), eq(memberships.userId, senderId)),
    );
}

export type SentRow = PackageFacts & { membership: MembershipRow | null };

const sentBy = (senderId: number) =>
  and(eq(packages.senderId, senderId), ne(packages.status, 'uploading'))!;

export async function sentBySlug(
  db: Database,
  senderId: number,
  slug: string,
): Promise<SentRow | null> {
  const [row] = await sentSelect(db, senderId).where(
    and(sentBy(senderId), eq(packages.slug, slug)),
  );
  return row ?? null;
}

/** A recipient of a sent package, named as the package's contract knows them. */
export type NamedRecipient = Omit<SentRecipientView, 'downloads'>;

/** The recipients of these packages, in the order they were added. */
export async function recipientsOf(
  db: Database,
  packageIds: readonly number[],
): Promise<Map<number, NamedRecipient[]>> {
  const out = new Map<number, NamedRecipient[]>();
  if (packageIds.length === 0) return out;
  const rows = await db
    .select({
      recipient: packageRecipients,
      email: users.email,
      firstName: memberFirstName,
      lastName: memberLastName,
      verified: sql<boolean>`coalesce(${memberActive}, false)`,
    })
    .from(packageRecipients)
    .innerJoin(packages, eq(packages.id, packageRecipients.packageId))
    .leftJoin(users, eq(users.id, packageRecipients.userId))
    .leftJoin(
      memberships,
      and(eq(memberships.contractId, packages.contractId), eq(memberships.userId, users.id)),
    )
    .where(sql`${packageRecipients.packageId} in ${packageIds}`)
    .orderBy(asc(packageRecipients.id));
  for (const row of rows) {
    const list = out.get(row.recipient.packageId) ?? [];
    list.push({ ...row, firstName: row.firstName ?? '', lastName: row.lastName ?? '' });
    out.set(row.recipient.packageId, list);
  }
  return out;
}

/** One page of a package's stored files by path, and how many there are. */
export async function filesPageOf(
  db: Database,
  packageId: number,
  page: { offset: number; limit: number },
) {
  const where = and(eq(packageFiles.packageId, packageId), eq(packageFiles.state, 'stored'));
  const rows = await db
    .select({
      userPath: packageFiles.userPath,
      size: packageFiles.size,
      objectKey: packageFiles.objectKey,
    })
    .from(packageFiles)
    .where(where)
    .orderBy(asc(packageFiles.userPath))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(packageFiles).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Marks the recipient row seen, once (the first time is kept). */
export async function markSeen(db: Database, recipientId: number): Promise<void> {
  await db
    .update(packageRecipients)
    .set({ seenAt: sql`now()` })
    .where(and(eq(packageRecipients.id, recipientId), isNull(packageRecipients.seenAt)));
}

/**
 * Moves the package's expiry to `until` if it is still the one the caller saw, so two
 * recipients extending at once extend once. Answers whether it moved.
 */
export async function extendExpiry(
  db: Database,
  packageId: number,
  seen: Date,
  until: Date,
): Promise<boolean> {
  const moved = await db
    .update(packages)
    .set({ expiresAt: until, expiryNotifiedAt: null })
    .where(
      and(
        eq(packages.id, packageId),
        eq(packages.expiresAt, seen),
        isNull(packages.objectsDeletedAt),
      ),
    )
    .returning({ id: packages.id });
  return moved.length > 0;
}

/** The where-clause of a recipient of a package by user id. */
export const recipientOfUser = (packageId: number, userId: number): SQL =>
  and(eq(packageRecipients.packageId, packageId), eq(packageRecipients.userId, userId))!;

/** The package's recipient row of this user (removed or not), if any. */
export async function recipientRowOfUser(db: Database, packageId: number, userId: number) {
  const [row] = await db
    .select()
    .from(packageRecipients)
    .where(recipientOfUser(packageId, userId))
    .limit(1);
  return row;
}

/** What adding a recipient (again) writes on their row. */
type RecipientAdded = Pick<RecipientRow, 'email' | 'mobile' | 'pinRequired'>;

/** Adds the user as a recipient of the package, or gives a removed one access again. */
export async function saveAddedRecipient(
  db: Database,
  packageId: number,
  userId: number,
  existing: Pick<RecipientRow, 'id'> | undefined,
  added: RecipientAdded,
): Promise<RecipientRow> {
  const values = { ...added, removed: false, pinVerifiedAt: null };
  const [saved] = existing
    ? await db
        .update(packageRecipients)
        .set(values)
        .where(eq(packageRecipients.id, existing.id))
        .returning()
    : await db
        .insert(packageRecipients)
        .values({ ...values, packageId, userId })
        .returning();
  return saved!;
}

/** From now on every recipient of the package proves a PIN. */
export async function requirePinVerify(db: Database, packageId: number): Promise<void> {
  await db.update(packages).set({ pinVerify: true }).where(eq(packages.id, packageId));
}

/** Marks the user's recipient rows of the package removed; false when they had none. */
export async function markRecipientRemoved(
  db: Database,
  packageId: number,
  userId: number,
): Promise<boolean> {
  const changed = await db
    .update(packageRecipients)
    .set({ removed: true })
    .where(recipientOfUser(packageId, userId))
    .returning({ id: packageRecipients.id });
  return changed.length > 0;
}

/** The mobile a recipient's PINs go to, unless the recipient has been removed meanwhile. */
export async function setRecipientMobile(
  db: Database,
  recipientId: number,
  mobile: string,
): Promise<void> {
  await db
    .update(packageRecipients)
    .set({ mobile })
    .where(and(eq(packageRecipients.id, recipientId), eq(packageRecipients.removed, false)));
}
