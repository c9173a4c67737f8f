import { describe, expect, it } from 'vitest';
import type { ContractUser } from '@filerunner/protocol';
import {
  draftOf,
  filterUsers,
  groupsPreview,
  hasChanges,
  rowChanges,
  userCounts,
} from './user-list';

const user = (id: number, name: string, email: string, enabled = true): ContractUser => ({
  id,
  email,
  first_name: name.split(' ')[0] ?? '',
  last_name: name.split(' ')[1] ?? '',
  name,
  mobile: null,
  admin: false,
  send: true,
  enabled,
  master_group: false,
  external: false,
  activated: true,
  groups: [],
  created_date: '2025-01-01T00:00:00.000Z',
});

const users = [
  user(1, 'Ada Admin', 'admin@example.com'),
  user(2, 'Sam Sender', 'sender@example.com'),
  user(3, 'Rita Recipient', 'rita@partner.test', false),
];

describe('user search', () => {
  it('lists everybody until the query is longer than 2 characters', () => {
    expect(filterUsers(users, '')).toEqual(users);
    expect(filterUsers(users, 'sa')).toEqual(users);
    expect(filterUsers(users, '  ad  ')).toEqual(users);
  });

  it('matches name or email, ignoring case', () => {
    expect(filterUsers(users, 'SAM').map((u) => u.id)).toEqual([2]);
    expect(filterUsers(users, 'example.com').map((u) => u.id)).toEqual([1, 2]);
    expect(filterUsers(users, 'PARTNER').map((u) => u.id)).toEqual([3]);
    expect(filterUsers(users, 'nobody')).toEqual([]);
  });
});

describe('user rows', () => {
  it('shows the first 2 groups and counts the rest for the +N indicator', () => {
    expect(groupsPreview([])).toEqual({ shown: [], more: 0 });
    expect(groupsPreview(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(groupsPreview(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b'], more: 3 });
  });

  it('counts enabled and disabled users', () => {
    expect(userCounts(users)).toEqual({ enabled: 2, disabled: 1 });
    expect(userCounts([])).toEqual({ enabled: 0, disabled: 0 });
  });

  it('turns a draft into the calls it needs', () => {
    const sam = users[1]!;
    expect(rowChanges(sam, draftOf(sam))).toBeNull();
    expect(rowChanges(sam, { ...draftOf(sam), name: ' Samuel Sender ' })).toEqual({
      name: 'Samuel Sender',
    });
    expect(rowChanges(sam, { ...draftOf(sam), admin: true })).toEqual({
      permissions: { send: true, admin: true, enabled: true },
    });
    expect(rowChanges(sam, { ...draftOf(sam), name: 'S S', enabled: false })).toEqual({
      name: 'S S',
      permissions: { send: true, admin: false, enabled: false },
    });
  });

  it('knows when edits would be lost', () => {
    const sam = users[1]!;
    expect(hasChanges(users, {})).toBe(false);
    expect(hasChanges(users, { 2: draftOf(sam) })).toBe(false);
    expect(hasChanges(users, { 2: { ...draftOf(sam), send: false } })).toBe(true);
  });
});
