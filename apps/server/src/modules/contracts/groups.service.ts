import {
  adminMessages,
  type Group,
  type GroupMember,
  type GroupsResponse,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { ContractRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import { displayName, type NamedPerson } from '../accounts/display-name';
import {
  addToGroup,
  deleteGroup,
  groupMembersOf,
  groupOfContract,
  groupsOf,
  insertGroup,
  masterGroupMembersOf,
  membersAmong,
  removeFromGroup,
  renameGroup,
  replaceGroupMembers,
  setMasterGroup,
} from './groups.repository';

const toMember = (u: NamedPerson & { id: number }): GroupMember => ({
  id: u.id,
  name: displayName(u),
  email: u.email,
});

/** The contract's groups with their members (all, or only one group). */
async function groupsWithMembers(
  db: Database,
  contractId: number,
  onlyGroupId?: number,
): Promise<Group[]> {
  const groupRows = await groupsOf(db, contractId, onlyGroupId);
  const memberRows = await groupMembersOf(db, contractId, onlyGroupId);
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
  return { members: (await masterGroupMembersOf(db, contractId)).map(toMember) };
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

/** Only members of this contract may be put in its groups. */
async function assertMembers(db: Database, contractId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  const found = await membersAmong(db, contractId, userIds);
  if (found.length !== new Set(userIds).size)
    throw ApiError.fields({ members: [adminMessages.notAMember] });
}

async function groupOf(db: Database, contractId: number, groupId: number) {
  const group = await groupOfContract(db, contractId, groupId);
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
    await renameGroup(tx, groupId, input);
    // A members list, when given, is the group's whole membership.
    if (input.members) await replaceGroupMembers(tx, groupId, input.members);
  });
  return presentGroup(ctx.db, contract.id, groupId);
}

export async function removeGroup(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
): Promise<void> {
  await groupOf(ctx.db, contract.id, groupId);
  await deleteGroup(ctx.db, groupId);
}

export async function addGroupMembers(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
  userIds: number[],
) {
  await groupOf(ctx.db, contract.id, groupId);
  await assertMembers(ctx.db, contract.id, userIds);
  await addToGroup(ctx.db, groupId, userIds);
  return presentGroup(ctx.db, contract.id, groupId);
}

export async function removeGroupMembers(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number,
  userIds: number[],
) {
  await groupOf(ctx.db, contract.id, groupId);
  await removeFromGroup(ctx.db, groupId, userIds);
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
  await setMasterGroup(ctx.db, contract.id, userIds, master);
  return masterGroup(ctx.db, contract.id);
}
