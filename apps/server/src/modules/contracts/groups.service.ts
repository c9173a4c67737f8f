import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  adminMessages,
  type Group,
  type GroupMember,
  type GroupsResponse,
} from '@filerunner/protocol';
import type { ContractRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { groupMembers, groups, memberships, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { displayName } from '../accounts/display-name';
import { memberFirstName, memberLastName, membershipIn } from '../memberships/member-view';

type MemberRow = { id: number; firstName: string; lastName: string; email: string };
const toMember = (u: MemberRow): GroupMember => ({
  id: u.id,
  name: displayName(u),
  email: u.email,
});
// Members are named as this contract knows them.
const memberColumns = {
  id: users.id,
  firstName: memberFirstName,
  lastName: memberLastName,
  email: users.email,
};

/** The contract's groups with their members (all, or only one group). */
async function groupsWithMembers(
  db: Database,
  contractId: number,
  onlyGroupId?: number,
): Promise<Group[]> {
  const scope = onlyGroupId
    ? and(eq(groups.contractId, contractId), eq(groups.id, onlyGroupId))
    : eq(groups.contractId, contractId);
  const groupRows = await db
    .select()
    .from(groups)
    .where(scope)
    .orderBy(asc(groups.name), asc(groups.id));
  const memberRows = await db
    .select({ groupId: groupMembers.groupId, ...memberColumns })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(memberships, membershipIn(groups.contractId))
    .where(scope)
    .orderBy(asc(memberFirstName), asc(users.email));
  return groupRows.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    members: memberRows.filter((m) => m.groupId === g.id).map(toMember),
  }));
}

async function masterGroup(
  db: Database,
  contractId: number,
): Promise<GroupsResponse['master_group']> {
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.contractId, contractId), eq(memberships.masterGroup, true)))
    .orderBy(asc(memberFirstName), asc(users.email));
  return { members: rows.map(toMember) };
}

export async function listGroups(db: Database, contractId: number): Promise<GroupsResponse> {
  return {
    groups: await groupsWithMembers(db, contractId),
    master_group: await masterGroup(db, contractId),
  };
}

/** One group as the Groups List shows it, after a change. */
async function presentGroup(db: Database, contractId: number, groupId: number): Promise<Group> {
  const [group] = await groupsWithMembers(db, contractId, groupId);
  return group!;
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
    const members = [...new Set(input.members ?? [])];
    if (members.length) {
      await tx
        .insert(groupMembers)
        .values(members.map((userId) => ({ groupId: group!.id, userId })));
    }
    return group!.id;
  });
}

/** Only members of this contract may be put in its groups. */
async function assertMembers(db: Database, contractId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  const found = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.contractId, contractId), inArray(memberships.userId, userIds)));
  if (found.length !== new Set(userIds).size)
    throw ApiError.fields({ members: [adminMessages.notAMember] });
}

async function groupOf(db: Database, contractId: number, groupId: number) {
  const [group] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.contractId, contractId)));
  if (!group) throw ApiError.notFound();
  return group;
}

export async function addGroup(
  ctx: AppContext,
  contract: ContractRow,
  input: { name: string; description: string; members?: number[] | undefined },
): Promise<Group> {
  await assertMembers(ctx.db, contract.id, input.members ?? []);
  const id = await insertGroup(ctx.db, contract.id, input);
  return presentGroup(ctx.db, contract.id, id);
}

export async function editGroup(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
  input: { name: string; description: string; members?: number[] | undefined },
): Promise<Group> {
  await groupOf(ctx.db, contract.id, groupId);
  await assertMembers(ctx.db, contract.id, input.members ?? []);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(groups)
      .set({ name: input.name, description: input.description })
      .where(eq(groups.id, groupId));
    // A members list, when given, is the group's whole membership.
    if (input.members) {
      await tx.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
      const members = [...new Set(input.members)];
      if (members.length)
        await tx.insert(groupMembers).values(members.map((userId) => ({ groupId, userId })));
    }
  });
  return presentGroup(ctx.db, contract.id, groupId);
}

export async function removeGroup(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
): Promise<void> {
  await groupOf(ctx.db, contract.id, groupId);
  await ctx.db.delete(groups).where(eq(groups.id, groupId));
}

export async function addGroupMembers(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
  userIds: number[],
) {
  await groupOf(ctx.db, contract.id, groupId);
  await assertMembers(ctx.db, contract.id, userIds);
  const unique = [...new Set(userIds)];
  if (unique.length) {
    await ctx.db
      .insert(groupMembers)
      .values(unique.map((userId) => ({ groupId, userId })))
      .onConflictDoNothing();
  }
  return presentGroup(ctx.db, contract.id, groupId);
}

export async function removeGroupMembers(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
  userIds: number[],
) {
  await groupOf(ctx.db, contract.id, groupId);
  if (userIds.length) {
    await ctx.db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, userIds)));
  }
  return presentGroup(ctx.db, contract.id, groupId);
}

/** Puts users in, or takes them out of, the master group (visible to and reaching everybody). */
export async function setMasterMembers(
  ctx: AppContext,
  contract: ContractRow,
  userIds: number[],
  master: boolean,
) {
  await assertMembers(ctx.db, contract.id, userIds);
  if (userIds.length) {
    await ctx.db
      .update(memberships)
      .set({ masterGroup: master })
      .where(and(eq(memberships.contractId, contract.id), inArray(memberships.userId, userIds)));
  }
  return masterGroup(ctx.db, contract.id);
}
