import { describe, expect, it, vi } from 'vitest';
import { api, type ContractUser, type GroupsResponse } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering, type AskedCall } from '../../app/test-support/api-store';
import { usersApi } from './users-api';

const ada = { id: 1, name: 'Ada Admin', email: 'admin@example.com' } as ContractUser;
const groups: GroupsResponse = {
  groups: [{ id: 7, name: 'Design', description: '', members: [ada] }],
  master_group: { members: [ada] },
};

const lists = { params: { slug: 'demo' } };
const reads = (calls: AskedCall[]) =>
  calls.filter(({ route }) => route === api.users.list || route === api.groups.list).length;

describe('the Users screen calls', () => {
  it('reload both lists after a change to a user or a group, even a refused one', async () => {
    let refuse = false;
    const { store, calls } = storeAnswering((route) => {
      if (route === api.users.list) return [ada];
      if (route === api.groups.list) return groups;
      if (refuse) throw new ApiError('HTTP_ERROR', 400, { detail: ['No.'] }, 'POST 400');
      return route === api.groups.removeMasterMembers ? { members: [] } : ada;
    });
    await Promise.all([
      store.dispatch(usersApi.endpoints.contractUsers.initiate(lists)),
      store.dispatch(usersApi.endpoints.groups.initiate(lists)),
    ]);
    expect(reads(calls)).toBe(2);

    await store.dispatch(
      usersApi.endpoints.updateUserName.initiate({
        params: { slug: 'demo', userId: 1 },
        body: { name: 'Ada Lovelace' },
      }),
    );
    await vi.waitFor(() => expect(reads(calls)).toBe(4));

    refuse = true;
    await store.dispatch(
      usersApi.endpoints.removeMasterMembers.initiate({
        params: { slug: 'demo' },
        body: { master_members: [1] },
      }),
    );
    await vi.waitFor(() => expect(reads(calls)).toBe(6));
  });
});
