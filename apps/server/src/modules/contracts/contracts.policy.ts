import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contracts, memberships } from '../../db/schema';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';

export type ContractRow = typeof contracts.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

export interface ContractAccess {
  contract: ContractRow;
  membership: MembershipRow;
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
  const [row] = await db
    .select({ contract: contracts, membership: memberships })
    .from(contracts)
    .innerJoin(memberships, eq(memberships.contractId, contracts.id))
    .where(and(eq(contracts.slug, slug), eq(memberships.userId, principal.user.id)));
  if (!row || !row.contract.enabled || !row.membership.enabled) throw ApiError.notFound();
  return row;
}

/** As `memberOf`, and the caller must be a project admin of the contract (403 otherwise). */
export async function adminOf(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ContractAccess> {
  const access = await memberOf(db, principal, slug);
  if (!access.membership.admin) throw ApiError.forbidden();
  return access;
}
