import type { ContractStorage } from '@filerunner/protocol';
import { slugify } from './slug';
import type { AppContext } from '../../context';
import type { ContractRow } from '../../db/rows';
import { accountActivatedAt, findUserByEmail } from '../accounts/accounts.repository';
import { inviteUser } from '../accounts/accounts.service';
import { storedBytesOfContract } from '../packages/packages.repository';
import { addedToContractMail } from '../../notify/account-mails';
import {
  insertContract,
  insertMembershipOnce,
  isContractSlugTaken,
  updateContractBySlug,
  type OperatorChange,
} from './contracts.repository';

/** A slug not yet taken, derived from the name. */
async function freeSlug(ctx: AppContext, name: string): Promise<string> {
  const base = slugify(name) || 'contract';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await isContractSlugTaken(ctx.db, slug))) return slug;
  }
}

/** The operator's limits on a contract's storage, in bytes; null or left out is unlimited. */
export type ContractQuotas = Partial<Pick<ContractRow, 'storageQuota' | 'maxPackageSize'>>;

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
  input: {
    name: string;
    adminEmail: string;
    adminFirstName?: string;
    adminLastName?: string;
    quotas?: ContractQuotas;
  },
): Promise<{ contract: ContractRow; told: AdminTold }> {
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const slug = await freeSlug(txCtx, input.name);
    const contract = await insertContract(tx, { name: input.name, slug, ...input.quotas });
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

/** An operator's change to a contract; false when no contract has the slug. */
async function changeByOperator(
  ctx: AppContext,
  slug: string,
  change: OperatorChange,
): Promise<boolean> {
  return updateContractBySlug(ctx.db, slug, change);
}

/** Disabled, a contract is gone for its members (404) until enabled again. */
export function setContractEnabled(
  ctx: AppContext,
  slug: string,
  enabled: boolean,
): Promise<boolean> {
  return changeByOperator(ctx, slug, { enabled });
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
  return changeByOperator(ctx, slug, { brandingEnabled: enabled });
}

/**
 * Sets the contract's storage quota and largest package (bytes; null is unlimited; a limit left
 * out keeps its value). Packages already created keep their place: the limits are checked when
 * a package is created. False when no contract has the slug.
 */
export function setContractQuotas(
  ctx: AppContext,
  slug: string,
  quotas: ContractQuotas,
): Promise<boolean> {
  return changeByOperator(ctx, slug, quotas);
}

/** The contract's limits and what its live packages hold, counted as the quota counts them. */
export async function contractStorageOf(
  ctx: AppContext,
  contract: ContractRow,
): Promise<ContractStorage> {
  return {
    storage_quota: contract.storageQuota,
    max_package_size: contract.maxPackageSize,
    storage_used: await storedBytesOfContract(ctx.db, contract.id),
  };
}
