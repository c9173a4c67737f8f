import { describe, expect, it } from 'vitest';
import { brandingEditable } from './branding.policy';

describe('branding policy', () => {
  it('lets branding be edited only once the operator has enabled it', () => {
    expect(brandingEditable({ brandingEnabled: true })).toBe(true);
    expect(brandingEditable({ brandingEnabled: false })).toBe(false);
  });
});
