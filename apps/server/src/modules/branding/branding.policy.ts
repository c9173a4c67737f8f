import { adminMessages } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { adminOf, type ContractAccess } from '../contracts/contracts.policy';

/**
 * As `adminOf`, and the operator must have enabled custom branding for the contract (403
 * otherwise). The switch is the operator's, so a project admin cannot turn it on.
 */
export async function brandingAdminOf(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ContractAccess> {
  const access = await adminOf(db, principal, slug);
  if (!access.contract.brandingEnabled) throw ApiError.forbidden(adminMessages.brandingNotEnabled);
  return access;
}
