import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { api, type ApiRoute, type ContractUser, type GroupsResponse } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import { ApiError, type ApiClient } from '../../app/api-client';
import { usersApi } from './users-api';

const ada = { id: 1, name: 'Ada Admin', email: 'admin@example.com' } as ContractUser;
const groups: GroupsResponse = {
  groups: [{ id: 7, name: 'Design', description: '', members: [ada] }],
  master_group: { members: [ada] },
};

/** A store with the API slice over a client answering `answer`, and the calls it was asked. */
function storeAnswering(answer: (route: ApiRoute) => unknown) {
  const calls: ApiRoute[] = [];
  const client = {
    call: async (route: ApiRoute) => {
      calls.push(route);
      return answer(route);
    },
  };
  const store = configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { api: client as ApiClient } } }).concat(
        apiSlice.middleware,
      ),
  });
  return { store, calls };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 10));
const lists = { params: { slug: 'demo' } };
const reads = (calls: ApiRoute[]) =>
  calls.filter((route) => route === api.users.list || route === api.groups.list).length;

describe('the Users screen calls', () => {
  it('reload both lists after a change to a user or a group, even a refused one', async () => {
    let refuse = false;
    const { store, calls } = storeAnswering((route) => {
      if (route === api.users.list) return [ada];
      if (route === api.groups.list) return groups;
      if (refuse) throw new ApiError('HTTP_ERROR', 400, { detail: ['No.'] }, 'POST 400');
      return route === api.groups.removeMasterMembers ? { members: [] } : ada;
    });
    store.dispatch(usersApi.endpoints.contractUsers.initiate(lists));
    store.dispatch(usersApi.endpoints.groups.initiate(lists));
    await settled();
    expect(reads(calls)).toBe(2);

    await store.dispatch(
      usersApi.endpoints.updateUserName.initiate({
        params: { slug: 'demo', userId: 1 },
        body: { name: 'Ada Lovelace' },
      }),
    );
    await settled();
    expect(reads(calls)).toBe(4);

    refuse = true;
    await store.dispatch(
      usersApi.endpoints.removeMasterMembers.initiate({
        params: { slug: 'demo' },
        body: { master_members: [1] },
      }),
    );
    await settled();
    expect(reads(calls)).toBe(6);
  });
});
