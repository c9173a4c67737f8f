import { slugify } from './slug';
import type { AppContext } from '../../context';
import type { ContractRow } from '../../db/rows';
import { accountActivatedAt, findUserByEmail } from '../accounts/accounts.repository';
import { inviteUser } from '../accounts/accounts.service';
import { joinContract } from '../memberships/member-view';
import {
  insertContract,
  insertMembershipOnce,
  isContractSlugTaken,
  updateContractBySlug,
} from './contracts.repository';

/** A slug not yet taken, derived from the name. */
async function freeSlug(ctx: AppContext, name: string): Promise<string> {
  const base = slugify(name) || 'contract';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await isContractSlugTaken(ctx.db, slug))) return slug;
  }
}

/**
 * Creates a contract with its admin, who gets an activation mail (or, when the account already
 * exists and is active, just the membership). The admin belongs to the master group.
 */
export async function createContract(
  ctx: AppContext,
  input: { name: string; adminEmail: string; adminFirstName?: string; adminLastName?: string },
): Promise<ContractRow> {
  const slug = await freeSlug(ctx, input.name);
  const contract = await insertContract(ctx.db, { name: input.name, slug });
  const existing = await findUserByEmail(ctx.db, input.adminEmail);
  const admin = await inviteUser(ctx, {
    email: input.adminEmail,
    firstName: input.adminFirstName,
    lastName: input.adminLastName,
    contractName: input.name,
  });
  await joinContract(ctx.db, {
    contractId: contract.id,
    userId: admin.id,
    newAccount: !existing,
    admin: true,
    send: true,
    masterGroup: true,
  });
  return contract;
}

/**
 * Puts an existing account straight into a contract, for the demo data and tests: the contract
 * follows the person's own name and mobile, and an activated account counts as active in it.
 */
export async function addMember(
  ctx: AppContext,
  contractId: number,
  userId: number,
  permissions: { admin?: boolean; send?: boolean; masterGroup?: boolean },
): Promise<void> {
  await insertMembershipOnce(ctx.db, {
    contractId,
    userId,
    ...permissions,
    seesProfile: true,
    activeSince: await accountActivatedAt(ctx.db, userId),
  });
}

/** An operator's switch on a contract; false when no contract has the slug. */
async function setContractSwitch(
  ctx: AppContext,
  slug: string,
  change: Partial<Pick<ContractRow, 'enabled' | 'brandingEnabled'>>,
): Promise<boolean> {
  return updateContractBySlug(ctx.db, slug, change);
}

/** Disabled, a contract is gone for its members (404) until enabled again. */
export function setContractEnabled(
  ctx: AppContext,
  slug: string,
  enabled: boolean,
): Promise<boolean> {
  return setContractSwitch(ctx, slug, { enabled });
}

/**
 * Disabled, the contract's custom branding is neither shown nor editable (it is kept, and shows
 * again once enabled).
 */
export function setBrandingEnabled(
  ctx: AppContext,
  slug: string,
  enabled: boolean,
): Promise<boolean> {
  return setContractSwitch(ctx, slug, { brandingEnabled: enabled });
}
