import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import type { ContractRow, MembershipRow } from '../../db/rows';
import { membershipBySlug, type ContractMembership } from '../memberships/memberships.repository';

/** The caller's membership of a contract they may use, with the contract. */
export type ContractAccess = ContractMembership;

// The decisions are plain predicates over rows already loaded, so they can be tested without a
// database; `memberOf` and `adminOf` load the rows and turn a refusal into the answer the client
// gets.

/** A member may use a contract while both the contract and their membership are enabled. */
export function isActiveMember(
  membership: Pick<MembershipRow, 'enabled'>,
  contract: Pick<ContractRow, 'enabled'>,
): boolean {
  return contract.enabled && membership.enabled;
}

/** A project admin administers the contract (users, groups, settings, activity). */
export function canAdminister(membership: Pick<MembershipRow, 'admin'>): boolean {
  return membership.admin;
}

/**
 * The caller's enabled membership of an enabled contract. Anyone else gets 404, so a slug does
 * not reveal whether a contract exists.
 */
export async function memberOf(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ContractAccess> {
  const access = await membershipBySlug(db, principal.user.id, slug);
  if (!access || !isActiveMember(access.membership, access.contract)) throw ApiError.notFound();
  return access;
}

/** As `memberOf`, and the caller must be a project admin of the contract (403 otherwise). */
export async function adminOf(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ContractAccess> {
  const access = await memberOf(db, principal, slug);
  if (!canAdminister(access.membership)) throw ApiError.forbidden();
  return access;
}
