import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { groupMembers, groups, memberships, users } from '../../db/schema';
import { memberFirstName, memberLastName, membershipIn } from '../memberships/member-view';

// Members are named as this contract knows them.
const groupMemberColumns = {
  id: users.id,
  firstName: memberFirstName,
  lastName: memberLastName,
  email: users.email,
};

/** The contract's groups (all, or only one), by name. */
export async function groupsOf(db: Database, contractId: number, onlyGroupId?: number) {
  return db
    .select()
    .from(groups)
    .where(groupScope(contractId, onlyGroupId))
    .orderBy(asc(groups.name), asc(groups.id));
}

/** The members of the contract's groups (all, or only one), each with its group's id, by name. */
export async function groupMembersOf(db: Database, contractId: number, onlyGroupId?: number) {
  return db
    .select({ groupId: groupMembers.groupId, ...groupMemberColumns })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(memberships, membershipIn(groups.contractId))
    .where(groupScope(contractId, onlyGroupId))
    .orderBy(asc(memberFirstName), asc(users.email));
}

const groupScope = (contractId: number, onlyGroupId?: number) =>
  onlyGroupId
    ? and(eq(groups.contractId, contractId), eq(groups.id, onlyGroupId))
    : eq(groups.contractId, contractId);

/** The members of the contract's master group, by name. */
export async function masterGroupMembersOf(db: Database, contractId: number) {
  return db
    .select(groupMemberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.contractId, contractId), eq(memberships.masterGroup, true)))
    .orderBy(asc(memberFirstName), asc(users.email));
}

/** Creates a group with its members (already checked to belong to the contract); returns its id. */
export async function insertGroup(
  db: Database,
  contractId: number,
  input: { name: string; description?: string; members?: number[] | undefined },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [group] = await tx
      .insert(groups)
      .values({ contractId, name: input.name, description: input.description ?? '' })
      .returning({ id: groups.id });
    await addToGroup(tx, group!.id, input.members ?? []);
    return group!.id;
  });
}

/** Which of these users are members of the contract. */
export async function membersAmong(db: Database, contractId: number, userIds: number[]) {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.contractId, contractId), inArray(memberships.userId, userIds)));
  return rows.map((row) => row.userId);
}

/** The contract's group with this id, if it is the contract's. */
export async function groupOfContract(db: Database, contractId: number, groupId: number) {
  const [group] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.contractId, contractId)));
  return group;
}

export async function renameGroup(
  db: Database,
  groupId: number,
  input: { name: string; description: string },
): Promise<void> {
  await db
    .update(groups)
    .set({ name: input.name, description: input.description })
    .where(eq(groups.id, groupId));
}

/** Makes these users the group's whole membership. */
export async function replaceGroupMembers(
  db: Database,
  groupId: number,
  userIds: number[],
): Promise<void> {
  await db.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
  await addToGroup(db, groupId, userIds);
}

export async function deleteGroup(db: Database, groupId: number): Promise<void> {
  await db.delete(groups).where(eq(groups.id, groupId));
}

/** Puts these users in the group; those already in it stay as they are. */
export async function addToGroup(db: Database, groupId: number, userIds: number[]): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  await db
    .insert(groupMembers)
    .values(unique.map((userId) => ({ groupId, userId })))
    .onConflictDoNothing();
}

export async function removeFromGroup(
  db: Database,
  groupId: number,
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, userIds)));
}

/** Puts these members of the contract in, or takes them out of, its master group. */
export async function setMasterGroup(
  db: Database,
  contractId: number,
  userIds: number[],
  master: boolean,
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .update(memberships)
    .set({ masterGroup: master })
    .where(and(eq(memberships.contractId, contractId), inArray(memberships.userId, userIds)));
}
