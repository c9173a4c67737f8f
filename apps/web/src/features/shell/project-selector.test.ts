import { describe, expect, it } from 'vitest';
import type { Contract } from '@filerunner/protocol';
import { avatarsThatFit, filterProjects, showsOverflowButton } from './project-selector';

const contract = (name: string) => ({ name, slug: name.toLowerCase() }) as Contract;

describe('project selector rules', () => {
  it('fits about one avatar per 100 px beyond the reserved 233 px, at least 2', () => {
    expect(avatarsThatFit(900)).toBe(6);
    expect(avatarsThatFit(1233)).toBe(10);
    // Below 533 px the strip still counts on 300 px.
    expect(avatarsThatFit(400)).toBe(3);
    expect(avatarsThatFit(0)).toBe(3);
  });

  it('falls back to the +N button when collapsed or out of room', () => {
    expect(showsOverflowButton(3, 900, false)).toBe(false);
    expect(showsOverflowButton(3, 900, true)).toBe(true);
    expect(showsOverflowButton(7, 900, false)).toBe(true);
  });

  it('filters projects by name, ignoring case', () => {
    const all = [contract('Alpha Films'), contract('Beta Records')];
    expect(filterProjects(all, 'FILMS').map((c) => c.name)).toEqual(['Alpha Films']);
    expect(filterProjects(all, '  ')).toEqual(all);
    expect(filterProjects(all, 'zzz')).toEqual([]);
  });
});
