import { describe, expect, it } from 'vitest';
import { packageTooLargeMessage } from './quotas';

const unlimited = { storage_quota: null, max_package_size: null };
const tooLarge = 'This package is larger than your contract allows';

describe('a package too large for its contract', () => {
  it('fits when no limit is set, or when it is within both', () => {
    expect(packageTooLargeMessage(unlimited, 5e15, 5e15)).toBeNull();
    const limits = { storage_quota: 1000, max_package_size: 600 };
    expect(packageTooLargeMessage(limits, 600, 400)).toBeNull();
  });

  it('names the largest package, or what is left of the quota, in sizes', () => {
    expect(
      packageTooLargeMessage({ ...unlimited, max_package_size: 10e9 }, 12_500_000_000, 0),
    ).toBe(`${tooLarge}: a package can be at most 10 GB and this one is 12.5 GB.`);
    expect(packageTooLargeMessage({ ...unlimited, storage_quota: 2e12 }, 300e9, 1.8e12)).toBe(
      `${tooLarge}: 200 GB is left of its 2 TB storage quota until earlier packages expire, ` +
        'and this one is 300 GB.',
    );
    expect(packageTooLargeMessage({ ...unlimited, storage_quota: 1e6 }, 1, 1.2e6)).toBe(
      `${tooLarge}: nothing is left of its 1 MB storage quota until earlier packages expire, ` +
        'and this one is 1 byte.',
    );
  });

  it('tells sizes that read the same in bytes', () => {
    expect(
      packageTooLargeMessage({ ...unlimited, max_package_size: 10_000_000 }, 10_000_001, 0),
    ).toBe(
      `${tooLarge}: a package can be at most 10,000,000 bytes and this one is 10,000,001 bytes.`,
    );
  });
});
