import { formatSize } from './units';

// A contract's limits on what it keeps in storage, set by the operator: a storage quota (the
// total of its live packages) and a largest package. Unset (null) is unlimited.

/** The operator's limits on a contract, in bytes; null where there is none. */
export interface ContractQuotas {
  storage_quota: number | null;
  max_package_size: number | null;
}

const tooLarge = 'This package is larger than your contract allows';

/**
 * Two sizes a person compares, in human sizes, or in bytes when those read the same ('10 MB'
 * against '10 MB' would not say why the package is refused).
 */
function apart(limit: number, size: number): [string, string] {
  const [a, b] = [formatSize(limit), formatSize(size)];
  if (a !== b) return [a, b];
  const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;
  return [bytes(limit), bytes(size)];
}

/**
 * Why a package of `size` bytes cannot be created under these limits, in the sender's words,
 * or null when it fits. `stored` is what the contract's live packages already hold.
 */
export function packageTooLargeMessage(
  quotas: ContractQuotas,
  size: number,
  stored: number,
): string | null {
  const { max_package_size: max, storage_quota: quota } = quotas;
  if (max !== null && size > max) {
    const [most, asked] = apart(max, size);
    return `${tooLarge}: a package can be at most ${most} and this one is ${asked}.`;
  }
  if (quota !== null && stored + size > quota) {
    const left = Math.max(0, quota - stored);
    const [free, asked] = apart(left, size);
    // Space comes back as earlier packages expire, so the sender knows waiting can help.
    return (
      `${tooLarge}: ${left === 0 ? 'nothing' : free} is left of its ` +
      `${formatSize(quota)} storage quota until earlier packages expire, and this one is ` +
      `${asked}.`
    );
  }
  return null;
}
