import { limits, type ContractUser } from '@filerunner/protocol';

/**
 * The users matching a search: by name or email, ignoring case, and only once the query is
 * longer than 2 characters; a shorter query lists everybody.
 */
export function filterUsers(users: ContractUser[], query: string): ContractUser[] {
  const needle = query.trim().toLowerCase();
  if (needle.length < limits.userSearchMinChars) return users;
  return users.filter(
    (u) => u.name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle),
  );
}

/** How many groups a row shows before a '+N' indicator. */
export const GROUPS_SHOWN = 2;

/** The groups a row shows, and how many more the '+N' indicator stands for. */
export function groupsPreview<T>(groups: T[]): { shown: T[]; more: number } {
  return { shown: groups.slice(0, GROUPS_SHOWN), more: Math.max(0, groups.length - GROUPS_SHOWN) };
}

export function userCounts(users: ContractUser[]): { enabled: number; disabled: number } {
  const enabled = users.filter((u) => u.enabled).length;
  return { enabled, disabled: users.length - enabled };
}

/** What the edit mode lets an admin change in a row. */
export interface UserDraft {
  name: string;
  send: boolean;
  admin: boolean;
  enabled: boolean;
}

export function draftOf(user: ContractUser): UserDraft {
  return { name: user.name, send: user.send, admin: user.admin, enabled: user.enabled };
}

/** The calls a row's draft needs: a new name, new permissions, both, or nothing (null). */
export function rowChanges(
  user: ContractUser,
  draft: UserDraft,
): { name?: string; permissions?: Omit<UserDraft, 'name'> } | null {
  const name = draft.name.trim();
  const changes: { name?: string; permissions?: Omit<UserDraft, 'name'> } = {};
  if (name !== user.name) changes.name = name;
  if (draft.send !== user.send || draft.admin !== user.admin || draft.enabled !== user.enabled) {
    changes.permissions = { send: draft.send, admin: draft.admin, enabled: draft.enabled };
  }
  return changes.name === undefined && !changes.permissions ? null : changes;
}

/** Whether any draft differs from its user: what makes Cancel ask before dropping edits. */
export function hasChanges(users: ContractUser[], drafts: Record<number, UserDraft>): boolean {
  return users.some((u) => drafts[u.id] !== undefined && rowChanges(u, drafts[u.id]!) !== null);
}
