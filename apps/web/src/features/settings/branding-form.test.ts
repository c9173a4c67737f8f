import { describe, expect, it } from 'vitest';
import type { Branding } from '@filerunner/protocol';
import {
  aliasInput,
  brandingChange,
  brandingFormDirty,
  brandingFormOf,
  brandingProblems,
  logoProblem,
  recheckedProblems,
} from './branding-form';

const saved: Branding = { name: 'Acme', slug: 'acme', alias: 'AC', colour: 'teal', logo: null };
const empty: Branding = { name: '', slug: 'acme', alias: '', colour: 'pink', logo: null };

describe('the custom branding form', () => {
  it('starts from the saved branding, or from the project name for an empty record', () => {
    expect(brandingFormOf(saved, 'Acme Studios')).toMatchObject({ name: 'Acme', alias: 'AC' });
    expect(brandingFormOf(empty, 'Acme Studios')).toMatchObject({
      name: 'Acme Studios',
      alias: '',
      colour: 'pink',
    });
    expect(brandingFormOf(empty, 'x'.repeat(60)).name).toHaveLength(50);
  });

  it('keeps aliases to 3 capitals as they are typed', () => {
    expect(aliasInput('ab1c-d')).toBe('ABC');
    expect(aliasInput('z')).toBe('Z');
  });

  it('checks name and alias', () => {
    expect(brandingProblems({ name: 'Acme', alias: '' })).toEqual({});
    expect(brandingProblems({ name: 'Acme', alias: 'ACM' })).toEqual({});
    expect(brandingProblems({ name: ' ', alias: 'A' })).toEqual({
      name: 'This field is required.',
      alias: 'Alias must be 2 letters min',
    });
    expect(brandingProblems({ name: 'x'.repeat(51), alias: 'AB' })).toEqual({
      name: 'Name must be 50 characters or fewer',
    });
  });

  it('takes images up to 5 MB only', () => {
    const rejected = "We couldn't upload your file. Please try again with a different one.";
    expect(logoProblem({ type: 'image/png', size: 5_000_000 })).toBeNull();
    expect(logoProblem({ type: 'image/webp', size: 10 })).toBeNull();
    expect(logoProblem({ type: 'image/png', size: 5_000_001 })).toBe(rejected);
    expect(logoProblem({ type: 'application/pdf', size: 10 })).toBe(rejected);
    expect(logoProblem({ type: 'image/png', size: 0 })).toBe(rejected);
  });

  it('sends initials for an empty alias and the logo only when it changed', () => {
    const form = brandingFormOf(empty, 'Acme Studios');
    expect(brandingChange(form)).toEqual({ name: 'Acme Studios', alias: 'AS', colour: 'pink' });
    expect(brandingChange({ ...form, logo: null, logoChanged: true })).toHaveProperty('logo', null);
  });

  it('is dirty once anything differs', () => {
    const initial = brandingFormOf(saved, 'Acme Studios');
    expect(brandingFormDirty(initial, initial)).toBe(false);
    expect(brandingFormDirty({ ...initial, colour: 'pink' }, initial)).toBe(true);
    expect(brandingFormDirty({ ...initial, logoChanged: true }, initial)).toBe(true);
  });

  it('checks the name and alias again as they are typed, keeping other errors', () => {
    const shown = { alias: 'Alias must be 2 letters min', logo: 'bad logo' };
    expect(recheckedProblems(shown, { name: 'Acme', alias: 'AAS' })).toEqual({
      logo: 'bad logo',
    });
    expect(recheckedProblems({}, { name: 'Acme', alias: 'A' })).toEqual({
      alias: 'Alias must be 2 letters min',
    });
  });
});
