import { and, asc, desc, eq, gte, ilike, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { limits, type ActivityPackage, type ActivityPage } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { ContractRow } from '../../db/rows';
import { memberships, packageRecipients, packages, users } from '../../db/schema';
import { displayName } from '../accounts/display-name';
import { memberFirstName, memberLastName, membershipIn } from '../memberships/member-view';

type ContractRef = Pick<ContractRow, 'id' | 'slug' | 'name'>;

// Senders and recipients are named as the package's contract knows them; a former member, whose
// membership is gone, by the address alone.

/** LIKE wildcards in a search are meant literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function present(
  db: Database,
  contract: ContractRef,
  where: SQL,
  page?: number,
): Promise<ActivityPackage[]> {
  let query = db
    .select({
      pkg: packages,
      sender: { firstName: memberFirstName, lastName: memberLastName, email: users.email },
    })
    .from(packages)
    .leftJoin(users, eq(users.id, packages.senderId))
    .leftJoin(memberships, membershipIn(packages.contractId))
    .where(where)
    .orderBy(desc(packages.sentAt), desc(packages.id))
    .$dynamic();
  if (page !== undefined)
    query = query.limit(limits.activityPageSize).offset((page - 1) * limits.activityPageSize);
  const rows = await query;
  if (rows.length === 0) return [];
  const recipients = await db
    .select({
      packageId: packageRecipients.packageId,
      email: packageRecipients.email,
      firstName: memberFirstName,
      lastName: memberLastName,
      downloaded: packageRecipients.downloaded,
      removed: packageRecipients.removed,
    })
    .from(packageRecipients)
    .innerJoin(packages, eq(packages.id, packageRecipients.packageId))
    .leftJoin(users, eq(users.id, packageRecipients.userId))
    .leftJoin(memberships, membershipIn(packages.contractId))
    .where(
      inArray(
        packageRecipients.packageId,
        rows.map((r) => r.pkg.id),
      ),
    )
    .orderBy(asc(packageRecipients.id));
  const now = Date.now();
  return rows.map(({ pkg, sender }) => ({
    id: pkg.id,
    slug: pkg.slug,
    name: pkg.name,
    sender: sender?.email
      ? {
          name: displayName({ ...sender, email: sender.email }),
          email: sender.email,
        }
      : null,
    contract: { id: contract.id, slug: contract.slug, name: contract.name },
    date_sent: pkg.sentAt.toISOString(),
    valid_date: pkg.validFrom.toISOString(),
    expires_date: pkg.expiresAt.toISOString(),
    expired: pkg.expiresAt.getTime() <= now,
    bytes: pkg.bytes,
    num_files: pkg.numFiles,
    status: pkg.status,
    recipients: recipients
      .filter((r) => r.packageId === pkg.id)
      .map((r) => ({
        email: r.email,
        name: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || r.email,
        downloaded: r.downloaded,
        removed: r.removed,
      })),
  }));
}

/** One page of a contract's packages, newest first, matching the text in name, sender or recipients. */
export async function activityPage(
  db: Database,
  contract: ContractRef,
  text: string,
  page: number,
): Promise<ActivityPage> {
  // A package still uploading has not been sent: it shows nowhere until it is.
  const conditions: SQL[] = [
    eq(packages.contractId, contract.id),
    ne(packages.status, 'uploading'),
  ];
  const trimmed = text.trim();
  if (trimmed) {
    const pattern = likePattern(trimmed);
    const recipientMatch = db
      .select({ id: packageRecipients.packageId })
      .from(packageRecipients)
      .where(ilike(packageRecipients.email, pattern));
    conditions.push(
      or(
        ilike(packages.name, pattern),
        ilike(users.email, pattern),
        ilike(sql`${memberFirstName} || ' ' || ${memberLastName}`, pattern),
        inArray(packages.id, recipientMatch),
      )!,
    );
  }
  const where = and(...conditions)!;
  // A number whichever driver answers: PostgreSQL counts in bigint, which node-postgres hands
  // back as text.
  const [count] = await db
    .select({ n: sql`count(*)::int`.mapWith(Number) })
    .from(packages)
    .leftJoin(users, eq(users.id, packages.senderId))
    .leftJoin(memberships, membershipIn(packages.contractId))
    .where(where);
  const total = count?.n ?? 0;
  return {
    packages: await present(db, contract, where, page),
    page,
    total,
    has_more: page * limits.activityPageSize < total,
  };
}

/** Every package sent in [from, to), for reports. */
export async function packagesSentBetween(
  db: Database,
  contract: ContractRef,
  from: Date,
  to: Date,
) {
  return present(
    db,
    contract,
    and(
      eq(packages.contractId, contract.id),
      ne(packages.status, 'uploading'),
      gte(packages.sentAt, from),
      lt(packages.sentAt, to),
    )!,
  );
}
