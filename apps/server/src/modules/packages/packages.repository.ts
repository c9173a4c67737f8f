import { and, asc, eq } from 'drizzle-orm';
import { mobileHint, type SenderPackage } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import { contracts, memberships, packageRecipients, packages, users } from '../../db/schema';
import type { StorageDriver } from '../../storage';
import { userColumns } from '../accounts/accounts.repository';
import { displayName } from '../accounts/display-name';
import { packageSlugOfObject } from './object-names';
import { memberFirstName, memberLastName, membershipIn } from '../memberships/member-view';

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
): Promise<boolean> {
  const slug = packageSlugOfObject(key);
  if (!slug) return false;
  const [row] = await db
    .select({
      status: packages.status,
      container: packages.container,
      objectPrefix: packages.objectPrefix,
    })
    .from(packages)
    .where(eq(packages.slug, slug));
  return (
    row !== undefined &&
    row.status !== 'uploading' &&
    row.container === container &&
    key.startsWith(row.objectPrefix)
  );
}
