import {
  adminMessages,
  messages,
  normalizeMobile,
  type ContractUser,
  type externalUsersRequest,
  type newContractUserRequest,
  type permissionUpdateRequest,
} from '@filerunner/protocol';
import type { z } from 'zod';
import type { ContractRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { ApiError } from '../../http/errors';
import { addedAsPartnerMail, addedToContractMail } from '../../notify/account-mails';
import {
  accountActivatedAt,
  findUserByEmail,
  findOrInsertAccount,
  updateUser,
} from '../accounts/accounts.repository';
import { membershipOf } from '../memberships/memberships.repository';
import { inviteUser } from '../accounts/accounts.service';
import { displayName } from '../accounts/display-name';
import { joinContract, otherContractCount } from '../memberships/member-view';
import {
  groupsOfContractAmong,
  joinGroups,
  leaveContract,
  memberGroupsOf,
  membersOf,
  nameMember,
  setMemberPermissions,
} from './users.repository';

/**
 * The members of a contract (all, or only the given users) with permissions and groups, named
 * as this contract knows them: never another contract's, or an unshared profile's, name or mobile.
 */
export async function listContractUsers(
  db: Database,
  contractId: number,
  onlyUserIds?: number[],
): Promise<ContractUser[]> {
  const rows = await membersOf(db, contractId, onlyUserIds);
  const groupRows = await memberGroupsOf(db, contractId, onlyUserIds);
  return rows.map(({ member, membership }) => ({
    id: member.id,
    email: member.email,
    first_name: member.firstName,
    last_name: member.lastName,
    name: displayName(member),
    mobile: member.mobile,
    admin: membership.admin,
    send: membership.send,
    enabled: membership.enabled,
    master_group: membership.masterGroup,
    external: membership.external,
    activated: member.active,
    groups: groupRows.filter((g) => g.userId === member.id).map(({ id, name }) => ({ id, name })),
    created_date: membership.createdAt.toISOString(),
  }));
}

/** One member as the Users screen shows them, after a change. */
async function contractUser(
  db: Database,
  contractId: number,
  userId: number,
): Promise<ContractUser> {
  const [user] = await listContractUsers(db, contractId, [userId]);
  return user!;
}

async function assertGroupsOfContract(db: Database, contractId: number, groupIds: number[]) {
  if (groupIds.length === 0) return;
  const found = await groupsOfContractAmong(db, contractId, groupIds);
  if (found.length !== new Set(groupIds).size)
    throw ApiError.fields({ groups: [adminMessages.unknownGroup] });
}

/**
 * Adds a person to a contract: a new address gets an account (with the name and mobile given)
 * and an activation mail. An existing account just gains the membership, with the name and
 * mobile given as this contract's own, and its person is told by mail either way; the answer is
 * the same in both cases, so adding an address tells the admin nothing about the account.
 */
export async function addContractUser(
  ctx: AppContext,
  contract: ContractRow,
  input: z.infer<typeof newContractUserRequest>,
): Promise<ContractUser> {
  const mobile = input.mobile ? normalizeMobile(input.mobile) : null;
  if (input.mobile && !mobile) throw ApiError.fields({ mobile: [messages.profile.invalidMobile] });
  await assertGroupsOfContract(ctx.db, contract.id, input.groups);
  const userId = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const existing = await findUserByEmail(tx, input.email);
    if (existing && (await membershipOf(tx, contract.id, existing.id))) {
      throw ApiError.fields({ email: [adminMessages.userExists] });
    }
    // A new address gets the activation mail here; so does an account not activated yet.
    const user = await inviteUser(txCtx, {
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      mobile,
      contractName: contract.name,
    });
    // Another add of the same new address may have made the account, and its membership, while
    // this one waited on the address's unique index.
    if (!existing && (await membershipOf(tx, contract.id, user.id))) {
      throw ApiError.fields({ email: [adminMessages.userExists] });
    }
    if (existing?.activatedAt) {
      await ctx.mailbox.queue(
        tx,
        addedToContractMail(existing, contract.name, `${ctx.config.publicUrl}/login`),
      );
    }
    await joinContract(tx, {
      contractId: contract.id,
      userId: user.id,
      newAccount: !existing,
      ...(existing ? { firstName: input.first_name, lastName: input.last_name, mobile } : {}),
      admin: input.project_admin,
      send: input.send || input.project_admin,
      masterGroup: input.add_to_master_group,
    });
    await joinGroups(tx, user.id, input.groups);
    return user.id;
  });
  return contractUser(ctx.db, contract.id, userId);
}

/**
 * External users are partners reached by email and mobile: they receive packages through a link
 * and a PIN, so they get no activation mail and no send permission. A new address gets an
 * account with the mobile given; for an existing account the mobile is this contract's own, and
 * its person is told by mail that the contract added them.
 */
export async function addExternalUsers(
  ctx: AppContext,
  contract: ContractRow,
  list: z.infer<typeof externalUsersRequest>,
): Promise<ContractUser[]> {
  const problems: string[] = [];
  const entries = list.map((entry) => {
    const mobile = entry.mobile ? normalizeMobile(entry.mobile) : null;
    if (entry.mobile && !mobile) problems.push(`${entry.email}: ${messages.profile.invalidMobile}`);
    return { email: entry.email, mobile };
  });
  if (problems.length) throw new ApiError(400, 'validation', { detail: problems });
  const added = await ctx.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const entry of entries) {
      const { user, created } = await findOrInsertAccount(tx, entry);
      if (!created && (await membershipOf(tx, contract.id, user.id))) {
        throw new ApiError(400, 'validation', {
          detail: [`${entry.email}: ${adminMessages.userExists}`],
        });
      }
      if (!created) {
        await ctx.mailbox.queue(
          tx,
          user.activatedAt
            ? addedToContractMail(user, contract.name, `${ctx.config.publicUrl}/login`)
            : addedAsPartnerMail(user, contract.name),
        );
      }
      await joinContract(tx, {
        contractId: contract.id,
        userId: user.id,
        newAccount: created,
        ...(created ? {} : { mobile: entry.mobile }),
        external: true,
      });
      ids.push(user.id);
    }
    return ids;
  });
  return listContractUsers(ctx.db, contract.id, added);
}

export async function updatePermissions(
  ctx: AppContext,
  contract: ContractRow,
  actingUserId: number,
  userId: number,
  input: z.infer<typeof permissionUpdateRequest>,
): Promise<ContractUser> {
  if (!(await membershipOf(ctx.db, contract.id, userId))) throw ApiError.notFound();
  // An admin who removed their own admin right (or disabled themselves) would lock the contract.
  if (userId === actingUserId && (!input.admin || !input.enabled)) {
    throw ApiError.fields({ admin: [adminMessages.cannotDemoteSelf] });
  }
  await setMemberPermissions(ctx.db, contract.id, userId, {
    send: input.send,
    admin: input.admin,
    enabled: input.enabled,
  });
  return contractUser(ctx.db, contract.id, userId);
}

/**
 * Renames a member. The person's own name changes only while the account is this contract's
 * alone and not activated (it is then still what this contract's admin typed); otherwise the
 * contract renames the person for itself, and what other contracts and the person see stays.
 */
export async function updateUserName(
  ctx: AppContext,
  contract: ContractRow,
  userId: number,
  name: string,
) {
  const membership = await membershipOf(ctx.db, contract.id, userId);
  if (!membership) throw ApiError.notFound();
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  const lastName = rest.join(' ');
  const ownProfile =
    membership.seesProfile &&
    !(await accountActivatedAt(ctx.db, userId)) &&
    (await otherContractCount(ctx.db, contract.id, userId)) === 0;
  await ctx.db.transaction(async (tx) => {
    if (ownProfile) await updateUser(tx, userId, { firstName, lastName });
    await nameMember(
      tx,
      membership.id,
      ownProfile ? { firstName: null, lastName: null } : { firstName, lastName },
    );
  });
  return contractUser(ctx.db, contract.id, userId);
}

/**
 * Takes a user out of the contract and its groups. The account, and every package they sent or
 * received, stays as it was.
 */
export async function removeContractUser(
  ctx: AppContext,
  contract: ContractRow,
  actingUserId: number,
  userId: number,
) {
  if (userId === actingUserId) throw ApiError.fields({ detail: [adminMessages.cannotRemoveSelf] });
  await ctx.db.transaction(async (tx) => {
    if (!(await leaveContract(tx, contract.id, userId))) throw ApiError.notFound();
  });
}
