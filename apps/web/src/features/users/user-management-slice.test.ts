import { describe, expect, it } from 'vitest';
import type { ContractUser, GroupsResponse } from '@filerunner/protocol';
import { loadContractUsers, loadGroups, userManagementReducer } from './user-management-slice';

const ada = { id: 1, name: 'Ada Admin', email: 'admin@example.com' } as ContractUser;
const groups: GroupsResponse = {
  groups: [{ id: 7, name: 'Design', description: '', members: [ada] }],
  master_group: { members: [ada] },
};

describe('user management slice', () => {
  it('keeps the lists of the project it loaded', () => {
    let state = userManagementReducer(undefined, loadContractUsers.pending('r1', 'demo'));
    state = userManagementReducer(state, loadContractUsers.fulfilled([ada], 'r1', 'demo'));
    state = userManagementReducer(state, loadGroups.fulfilled(groups, 'r2', 'demo'));
    expect(state).toMatchObject({ slug: 'demo', usersStatus: 'fulfilled', users: [ada] });
    expect(state.groups.map((g) => g.name)).toEqual(['Design']);
    expect(state.masterMembers).toEqual([ada]);
  });

  it('empties the lists on a project switch and drops late answers for the old project', () => {
    let state = userManagementReducer(undefined, loadContractUsers.pending('r1', 'demo'));
    state = userManagementReducer(state, loadContractUsers.fulfilled([ada], 'r1', 'demo'));
    state = userManagementReducer(state, loadContractUsers.pending('r2', 'other'));
    expect(state).toMatchObject({ slug: 'other', users: [], usersStatus: 'pending' });
    state = userManagementReducer(state, loadGroups.fulfilled(groups, 'r0', 'demo'));
    expect(state.groups).toEqual([]);
  });
});
