import { adminMessages } from '@filerunner/protocol';
import type { ContractRow } from '../../db/rows';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { adminOf, type ContractAccess } from '../contracts/contracts.policy';

/**
 * Custom branding is editable while the operator has enabled it for the contract. The switch is
 * the operator's, so a project admin cannot turn it on.
 */
export function brandingEditable(contract: Pick<ContractRow, 'brandingEnabled'>): boolean {
  return contract.brandingEnabled;
}

/**
 * As `adminOf`, and the operator must have enabled custom branding for the contract (403
 * otherwise).
 */
export async function brandingAdminOf(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ContractAccess> {
  const access = await adminOf(db, principal, slug);
  if (!brandingEditable(access.contract)) {
    throw ApiError.forbidden(adminMessages.brandingNotEnabled);
  }
  return access;
}
