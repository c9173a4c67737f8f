import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  adminMessages,
  type Group,
  type GroupMember,
  type GroupsResponse,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { groupMembers, groups, memberships, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ContractRow } from './contracts.policy';

const memberName = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

export async function listGroups(db: Database, contractId: number): Promise<GroupsResponse> {
  const groupRows = await db
    .select()
    .from(groups)
    .where(eq(groups.contractId, contractId))
    .orderBy(asc(groups.name), asc(groups.id));
  const memberRows = await db
    .select({
      groupId: groupMembers.groupId,
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groups.contractId, contractId))
    .orderBy(asc(users.firstName), asc(users.email));
  const masterRows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.contractId, contractId), eq(memberships.masterGroup, true)))
    .orderBy(asc(users.firstName), asc(users.email));
  const toMember = (u: {
    id: number;
    firstName: string;
    lastName: string;
    email: string;
  }): GroupMember => ({
    id: u.id,
    name: memberName(u),
    email: u.email,
  });
  return {
    groups: groupRows.map((g): Group => ({
      id: g.id,
      name: g.name,
      description: g.description,
      members: memberRows.filter((m) => m.groupId === g.id).map(toMember),
    })),
    master_group: { members: masterRows.map(toMember) },
  };
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
  const id = await ctx.db.transaction(async (tx) => {
    const [group] = await tx
      .insert(groups)
      .values({ contractId: contract.id, name: input.name, description: input.description })
      .returning({ id: groups.id });
    const members = [...new Set(input.members ?? [])];
    if (members.length)
      await tx
        .insert(groupMembers)
        .values(members.map((userId) => ({ groupId: group!.id, userId })));
    return group!.id;
  });
  return (await listGroups(ctx.db, contract.id)).groups.find((g) => g.id === id)!;
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
  return (await listGroups(ctx.db, contract.id)).groups.find((g) => g.id === groupId)!;
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
  return (await listGroups(ctx.db, contract.id)).groups.find((g) => g.id === groupId)!;
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
  return (await listGroups(ctx.db, contract.id)).groups.find((g) => g.id === groupId)!;
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
  return (await listGroups(ctx.db, contract.id)).master_group;
}
