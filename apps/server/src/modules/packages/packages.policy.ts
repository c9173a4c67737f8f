import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contracts, memberships, packages } from '../../db/schema';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import type { ContractAccess, ContractRow } from '../contracts/contracts.policy';

export type PackageRow = typeof packages.$inferSelect;

/** A caller who may send in the contract: an enabled member with send permission (403 without). */
export function assertMaySend(access: ContractAccess): void {
  if (!access.membership.send) throw ApiError.forbidden();
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
  const [row] = await db
    .select({ pkg: packages, contract: contracts, membership: memberships })
    .from(packages)
    .innerJoin(contracts, eq(contracts.id, packages.contractId))
    .innerJoin(
      memberships,
      and(eq(memberships.contractId, contracts.id), eq(memberships.userId, principal.user.id)),
    )
    .where(and(eq(packages.slug, slug), eq(packages.senderId, principal.user.id)));
  if (!row || (contractSlug !== undefined && row.contract.slug !== contractSlug)) {
    throw ApiError.notFound();
  }
  if (!row.contract.enabled || !row.membership.enabled) throw ApiError.notFound();
  if (!row.membership.send) throw ApiError.forbidden();
  return { pkg: row.pkg, contract: row.contract };
}
