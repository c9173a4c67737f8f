import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Membership } from '@filerunner/protocol';
import type { Database } from '../../db/client';
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

/** Every membership of a user (enabled or not), with the names of their groups in it. */
export async function membershipsOfUser(db: Database, userId: number): Promise<Membership[]> {
  const rows = await db
    .select({ contract: contracts, membership: memberships })
    .from(memberships)
    .innerJoin(contracts, eq(contracts.id, memberships.contractId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(contracts.name), asc(contracts.id));
  if (rows.length === 0) return [];
  const groupRows = await db
    .select({ contractId: groups.contractId, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(
      and(
        eq(groupMembers.userId, userId),
        inArray(
          groups.contractId,
          rows.map((r) => r.contract.id),
        ),
      ),
    )
    .orderBy(asc(groups.name));
  return rows.map(({ contract, membership }) => ({
    contract: { id: contract.id, name: contract.name, slug: contract.slug },
    admin: membership.admin,
    send: membership.send,
    enabled: membership.enabled,
    master_group: membership.masterGroup,
    groups: groupRows.filter((g) => g.contractId === contract.id).map((g) => ({ name: g.name })),
  }));
}
