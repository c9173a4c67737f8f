import { and, asc, eq, sql } from 'drizzle-orm';
import type { Membership } from '@filerunner/protocol';
import { preparedOnce, type Database } from '../../db/client';
import { contracts, groupMembers, groups, memberships } from '../../db/schema';

// Membership rows belong to both sides of a user's place in a contract: accounts reads them to
// summarise a user, contracts to decide what a member may do. Both read them here, so neither of
// those modules has to import the other.

export type ContractRow = typeof contracts.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

/** A membership together with the contract it is in. */
export interface ContractMembership {
  contract: ContractRow;
  membership: MembershipRow;
}

/**
 * The user's membership of the contract with this slug, enabled or not, with the contract;
 * undefined when there is no such contract or the user is not in it.
 */
export async function membershipBySlug(
  db: Database,
  userId: number,
  slug: string,
): Promise<ContractMembership | undefined> {
  const [row] = await db
    .select({ contract: contracts, membership: memberships })
    .from(contracts)
    .innerJoin(memberships, eq(memberships.contractId, contracts.id))
    .where(and(eq(contracts.slug, slug), eq(memberships.userId, userId)));
  return row;
}

/** The statement behind `membershipsOfUser`, built once per database handle. */
const membershipsOfUserStatement = preparedOnce((db) =>
  db
    .select({
      contract: { id: contracts.id, name: contracts.name, slug: contracts.slug },
      membership: memberships,
      groupNames: sql<string[]>`coalesce((
        select json_agg(${groups.name} order by ${groups.name})
        from ${groupMembers} join ${groups} on ${groups.id} = ${groupMembers.groupId}
        where ${groupMembers.userId} = ${memberships.userId}
          and ${groups.contractId} = ${contracts.id}
      ), '[]'::json)`,
    })
    .from(memberships)
    .innerJoin(contracts, eq(contracts.id, memberships.contractId))
    .where(eq(memberships.userId, sql.placeholder('userId')))
    .orderBy(asc(contracts.name), asc(contracts.id))
    .prepare('memberships_of_user'),
);

/**
 * Every membership of a user (enabled or not), with the names of their groups in it. Every
 * signed-in page asks for the user's summary, which reads this: so it is one statement, built
 * once (and planned once per PostgreSQL connection).
 */
export async function membershipsOfUser(db: Database, userId: number): Promise<Membership[]> {
  const rows = await membershipsOfUserStatement(db).execute({ userId });
  return rows.map(({ contract, membership, groupNames }) => ({
    contract,
    admin: membership.admin,
    send: membership.send,
    enabled: membership.enabled,
    master_group: membership.masterGroup,
    groups: groupNames.map((name) => ({ name })),
  }));
}
