import { slugify } from './slug';
import type { AppContext } from '../../context';
import type { ContractRow } from '../../db/rows';
import { accountActivatedAt, findUserByEmail } from '../accounts/accounts.repository';
import { inviteUser } from '../accounts/accounts.service';
import { addedToContractMail } from '../../notify/account-mails';
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

/** How the admin of a new contract was told: an activation link, or a notice to log in. */
export type AdminTold = 'activation' | 'added';

/**
 * Creates a contract with its admin, who belongs to the master group. A new address (or an
 * account not activated yet) gets an activation mail; an account already in use gets a mail
 * saying it was added, keeps its own name in the contract and is active there at once: the
 * operator made the contract for this very person.
 */
export async function createContract(
  ctx: AppContext,
  input: { name: string; adminEmail: string; adminFirstName?: string; adminLastName?: string },
): Promise<{ contract: ContractRow; told: AdminTold }> {
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const slug = await freeSlug(txCtx, input.name);
    const contract = await insertContract(tx, { name: input.name, slug });
    const existing = await findUserByEmail(tx, input.adminEmail);
    const admin = await inviteUser(txCtx, {
      email: input.adminEmail,
      firstName: input.adminFirstName,
      lastName: input.adminLastName,
      contractName: input.name,
    });
    const inUse = Boolean(existing?.activatedAt);
    if (inUse) {
      await ctx.mailbox.queue(
        tx,
        addedToContractMail(admin, contract.name, `${ctx.config.publicUrl}/login`),
      );
    }
    await insertMembershipOnce(tx, {
      contractId: contract.id,
      userId: admin.id,
      admin: true,
      send: true,
      masterGroup: true,
      // A name another contract gave an account not activated yet is not the person's own.
      seesProfile: !existing || inUse,
      activeSince: inUse ? new Date() : null,
    });
    return { contract, told: inUse ? 'added' : 'activation' };
  });
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
