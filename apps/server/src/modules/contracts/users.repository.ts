import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { MembershipRow } from '../../db/rows';
import { groupMembers, groups, memberships, users } from '../../db/schema';
import { memberColumns, memberFirstName, memberLastName } from '../memberships/member-view';

/**
 * The members of a contract (all, or only the given users) with their memberships, named as
 * this contract knows them, by name.
 */
export async function membersOf(db: Database, contractId: number, onlyUserIds?: number[]) {
  return db
    .select({ member: memberColumns, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      onlyUserIds
        ? and(eq(memberships.contractId, contractId), inArray(memberships.userId, onlyUserIds))
        : eq(memberships.contractId, contractId),
    )
    .orderBy(asc(memberFirstName), asc(memberLastName), asc(users.email));
}

/** The contract's groups each of its members (all, or only the given users) is in, by name. */
export async function memberGroupsOf(db: Database, contractId: number, onlyUserIds?: number[]) {
  return db
    .select({ userId: groupMembers.userId, id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(
      onlyUserIds
        ? and(eq(groups.contractId, contractId), inArray(groupMembers.userId, onlyUserIds))
        : eq(groups.contractId, contractId),
    )
    .orderBy(asc(groups.name));
}

/** Which of these group ids are the contract's. */
export async function groupsOfContractAmong(
  db: Database,
  contractId: number,
  groupIds: number[],
): Promise<number[]> {
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.contractId, contractId), inArray(groups.id, groupIds)));
  return rows.map((row) => row.id);
}

/** Puts the user in these groups (already checked to be the contract's). */
export async function joinGroups(db: Database, userId: number, groupIds: number[]): Promise<void> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return;
  await db.insert(groupMembers).values(unique.map((groupId) => ({ groupId, userId })));
}

export async function setMemberPermissions(
  db: Database,
  contractId: number,
  userId: number,
  permissions: Pick<MembershipRow, 'send' | 'admin' | 'enabled'>,
): Promise<void> {
  await db
    .update(memberships)
    .set(permissions)
    .where(and(eq(memberships.contractId, contractId), eq(memberships.userId, userId)));
}

/** The contract's own name for the member; nulls make it follow the person's own name. */
export async function nameMember(
  db: Database,
  membershipId: number,
  name: { firstName: string | null; lastName: string | null },
): Promise<void> {
  await db.update(memberships).set(name).where(eq(memberships.id, membershipId));
}

/**
 * Takes the user out of the contract and its groups; false when they were not in it. The
 * account, and every package they sent or received, stays as it was.
 */
export async function leaveContract(
  db: Database,
  contractId: number,
  userId: number,
): Promise<boolean> {
  const removed = await db
    .delete(memberships)
    .where(and(eq(memberships.contractId, contractId), eq(memberships.userId, userId)))
    .returning({ id: memberships.id });
  if (removed.length === 0) return false;
  const contractGroups = db
    .select({ id: groups.id })
    .from(groups)
    .where(eq(groups.contractId, contractId));
  await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, contractGroups)));
  return true;
}
