import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { memberships, users } from '../../db/schema';

// An account is shared by every contract its person is in, but what a contract shows about the
// person is the contract's own: the name and mobile its admins gave, or the person's own ones
// only in the contract that brought the account to FileRunner (`seesProfile`). Any other
// contract shows the address alone until its admins name the person, so adding an address never
// tells an admin what another contract, or the person, wrote down.
//
// The expressions read `memberships` and `users` joined on the member; a query that left-joins
// the membership (a package of a former member) gets empty names and no mobile for them.

/** The first name this contract knows the member by ('' when it knows none). */
export const memberFirstName: SQL<string> = sql<string>`(case
  when ${memberships.firstName} is not null then ${memberships.firstName}
  when ${memberships.seesProfile} then ${users.firstName}
  else '' end)`;

/** The last name that goes with `memberFirstName`. */
export const memberLastName: SQL<string> = sql<string>`(case
  when ${memberships.firstName} is not null then coalesce(${memberships.lastName}, '')
  when ${memberships.seesProfile} then ${users.lastName}
  else '' end)`;

/** This contract's mobile for the member, the default PIN mobile of its packages. */
export const memberMobile: SQL<string | null> = sql<string | null>`coalesce(${memberships.mobile},
  case when ${memberships.seesProfile} then ${users.mobile} end)`;

/**
 * Whether the member is active in this contract: they signed in (or activated) since it added
 * them. Until then they are invited, whatever the account did elsewhere.
 */
export const memberActive: SQL<boolean> = sql<boolean>`(${memberships.activeSince} is not null)`;

/** The columns of a member as this contract sees them, for a select over memberships and users. */
export const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: memberFirstName,
  lastName: memberLastName,
  mobile: memberMobile,
  active: memberActive,
};

/** The join condition of a user's membership of a contract (an id, or a column naming one). */
export const membershipIn = (contractId: number | PgColumn, userId: PgColumn = users.id) =>
  and(eq(memberships.contractId, contractId), eq(memberships.userId, userId))!;

/**
 * Puts an account into a contract. `newAccount` says whether the account was created for this
 * very membership: only then does the contract follow the person's own name and mobile. The
 * person is invited until they next use FileRunner, even when the account is active elsewhere.
 */
export async function joinContract(
  db: Database,
  values: Omit<typeof memberships.$inferInsert, 'id' | 'seesProfile' | 'createdAt'> & {
    newAccount: boolean;
  },
): Promise<void> {
  const { newAccount, ...row } = values;
  await db.insert(memberships).values({ ...row, seesProfile: newAccount });
}

/** The person signed in (or activated): every contract that added them now counts them active. */
export async function markMembershipsActive(db: Database, userId: number): Promise<void> {
  await db
    .update(memberships)
    .set({ activeSince: new Date() })
    .where(and(eq(memberships.userId, userId), isNull(memberships.activeSince)));
}

/** How many contracts other than this one the account belongs to. */
export async function otherContractCount(
  db: Database,
  contractId: number,
  userId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: sql`count(*)::int`.mapWith(Number) })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), ne(memberships.contractId, contractId)));
  return row?.n ?? 0;
}
