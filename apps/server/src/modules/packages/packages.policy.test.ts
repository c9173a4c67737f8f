import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors';
import type { ContractAccess } from '../contracts/contracts.policy';
import { assertMaySend, maySend, seesOwnPackage } from './packages.policy';

const row = (contract: { slug?: string; enabled?: boolean }, membershipEnabled = true) => ({
  contract: { slug: 'acme', enabled: true, ...contract },
  membership: { enabled: membershipEnabled },
});

describe('package policy', () => {
  it('lets only members with the send permission send', () => {
    expect(maySend({ send: true })).toBe(true);
    expect(maySend({ send: false })).toBe(false);
    const access = (send: boolean) => ({ membership: { send } }) as ContractAccess;
    expect(() => assertMaySend(access(true))).not.toThrow();
    expect(() => assertMaySend(access(false))).toThrow(ApiError);
  });

  it('shows a sender their package while they are an active member of its contract', () => {
    expect(seesOwnPackage(row({}))).toBe(true);
    expect(seesOwnPackage(row({}), 'acme')).toBe(true);
    expect(seesOwnPackage(row({ enabled: false }))).toBe(false);
    expect(seesOwnPackage(row({}, false))).toBe(false);
  });

  it('hides the package when the upload call names another contract', () => {
    expect(seesOwnPackage(row({}), 'other')).toBe(false);
  });
});
