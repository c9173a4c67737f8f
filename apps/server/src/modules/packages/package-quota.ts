import { packageTooLargeMessage } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { ContractRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import { lockContractQuotas } from '../contracts/contracts.repository';
import { storedBytesOfContract } from './packages.repository';

type Quotas = Pick<ContractRow, 'storageQuota' | 'maxPackageSize'>;

const hasLimits = (quotas: Quotas) =>
  quotas.storageQuota !== null || quotas.maxPackageSize !== null;

/** Whether `error` is this module's refusal of a package the contract's limits do not fit. */
export function isQuotaRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'package_too_large';
}

function refuseUnlessFits(quotas: Quotas, size: number, stored: number): void {
  const problem = packageTooLargeMessage(
    { storage_quota: quotas.storageQuota, max_package_size: quotas.maxPackageSize },
    size,
    stored,
  );
  // 413: what the request asks to store is more than this contract may; retrying cannot help.
  if (problem !== null) throw ApiError.detail(413, 'package_too_large', problem);
}

/**
 * Refuses, before anything is written, a package larger than the contract's largest package.
 * Needs no lock: it depends on the request alone.
 */
export function assertPackageSizeAllowed(contract: ContractRow, size: number): void {
  refuseUnlessFits({ storageQuota: null, maxPackageSize: contract.maxPackageSize }, size, 0);
}

/**
 * Refuses a package the contract's storage quota cannot hold beside its live packages. Runs in
 * the create's transaction, under a lock on the contract's row that lasts until it commits, so
 * two creates at once take turns and the second counts the first: they cannot both pass a quota
 * that only fits one. A contract without limits takes no lock, so its creates never wait.
 */
export async function assertQuotaHolds(
  tx: Database,
  contract: ContractRow,
  size: number,
): Promise<void> {
  if (!hasLimits(contract)) return;
  // Read again under the lock: the operator may have changed them since the request began.
  const quotas = await lockContractQuotas(tx, contract.id);
  if (!hasLimits(quotas)) return;
  refuseUnlessFits(quotas, size, await storedBytesOfContract(tx, contract.id));
}
