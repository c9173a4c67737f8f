import { describe, expect, it } from 'vitest';
import { canAdminister, isActiveMember } from './contracts.policy';

describe('contract policy', () => {
  it('lets a member use a contract only while both it and their membership are enabled', () => {
    expect(isActiveMember({ enabled: true }, { enabled: true })).toBe(true);
    expect(isActiveMember({ enabled: false }, { enabled: true })).toBe(false);
    expect(isActiveMember({ enabled: true }, { enabled: false })).toBe(false);
    expect(isActiveMember({ enabled: false }, { enabled: false })).toBe(false);
  });

  it('lets only project admins administer', () => {
    expect(canAdminister({ admin: true })).toBe(true);
    expect(canAdminister({ admin: false })).toBe(false);
  });
});
