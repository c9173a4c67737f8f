import type { Database } from '../../db/client';
import type { ContractRow, MembershipRow, PackageRow } from '../../db/rows';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { isActiveMember, type ContractAccess } from '../contracts/contracts.policy';
import { sentPackageWithMembership } from './packages.repository';

/** A member with the send permission may send in the contract. */
export function maySend(membership: Pick<MembershipRow, 'send'>): boolean {
  return membership.send;
}

/** A caller who may send in the contract: an enabled member with send permission (403 without). */
export function assertMaySend(access: ContractAccess): void {
  if (!maySend(access.membership)) throw ApiError.forbidden();
}

/**
 * Whether the upload calls may see the caller's own package: it is in the contract they named
 * (when they named one), and they are still an enabled member of that enabled contract.
 */
export function seesOwnPackage(
  row: {
    contract: Pick<ContractRow, 'slug' | 'enabled'>;
    membership: Pick<MembershipRow, 'enabled'>;
  },
  contractSlug?: string,
): boolean {
  if (contractSlug !== undefined && row.contract.slug !== contractSlug) return false;
  return isActiveMember(row.membership, row.contract);
}

/**
 * The caller's own package, for the upload calls: they sent it, and they are still an enabled
 * sender of its enabled contract (a sender who lost the right mid-upload cannot go on). Anyone
 * else gets 404, so slugs reveal nothing.
 */
export async function ownPackage(
  db: Database,
  principal: Principal,
  slug: string,
  contractSlug?: string,
): Promise<{ pkg: PackageRow; contract: ContractRow }> {
  const row = await sentPackageWithMembership(db, principal.user.id, slug);
  if (!row || !seesOwnPackage(row, contractSlug)) throw ApiError.notFound();
  if (!maySend(row.membership)) throw ApiError.forbidden();
  return { pkg: row.pkg, contract: row.contract };
}
