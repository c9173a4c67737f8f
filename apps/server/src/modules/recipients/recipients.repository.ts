import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { groupMembers, groups, memberships, users } from '../../db/schema';
import { memberColumns, memberFirstName, memberLastName } from '../memberships/member-view';

/** The contract's enabled members as it knows them, with their place in the master group. */
export async function enabledMembersOf(db: Database, contractId: number) {
  return db
    .select({ ...memberColumns, masterGroup: memberships.masterGroup })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.contractId, contractId), eq(memberships.enabled, true)))
    .orderBy(asc(memberFirstName), asc(memberLastName), asc(users.email));
}

/** Each member of each of the contract's groups, by group name. */
export async function groupMembershipsOf(db: Database, contractId: number) {
  return db
    .select({ groupId: groups.id, name: groups.name, userId: groupMembers.userId })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groups.contractId, contractId))
    .orderBy(asc(groups.name), asc(groups.id));
}
