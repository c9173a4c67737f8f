import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import type { ActivityPackage, ActivityPage, ApiRoute } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import type { ApiClient } from '../../app/api-client';
import { activityApi, activityList, type ActivitySearch } from './activity-api';

const pkg = (id: number) => ({ id, slug: `p${id}`, name: `Package ${id}` }) as ActivityPackage;
const answer = (page: number, ids: number[], hasMore: boolean): ActivityPage => ({
  packages: ids.map(pkg),
  page,
  total: 20,
  has_more: hasMore,
});

type PageArgs = { params: { contract: string }; query: { text?: string; page: number } };

/** A store whose client answers each activity call with `answer`, in the order it is settled. */
function storeAnswering(answerOf: (args: PageArgs) => Promise<ActivityPage>) {
  const client = { call: async (_route: ApiRoute, args: unknown) => answerOf(args as PageArgs) };
  return configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { api: client as ApiClient } } }).concat(
        apiSlice.middleware,
      ),
  });
}

const listOf = (store: ReturnType<typeof storeAnswering>, search: ActivitySearch) =>
  activityList(activityApi.endpoints.activity.select(search)(store.getState()).data);

describe('activity', () => {
  it("appends the pages that 'Load more' fetches", async () => {
    const store = storeAnswering(async ({ query }) =>
      query.page === 1 ? answer(1, [1, 2], true) : answer(2, [3], false),
    );
    const search = { slug: 'demo', text: '' };
    await store.dispatch(activityApi.endpoints.activity.initiate(search));
    expect(listOf(store, search)).toMatchObject({ total: 20, hasMore: true });
    await store.dispatch(activityApi.endpoints.activity.initiate(search, { direction: 'forward' }));
    const list = listOf(store, search);
    expect(list.packages.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(list).toMatchObject({ total: 20, hasMore: false });
  });

  it('starts a new search at page 1 and keeps the answer of the one typed over apart', async () => {
    const pending = new Map<string, (page: ActivityPage) => void>();
    const store = storeAnswering(
      ({ query }) => new Promise((resolve) => pending.set(query.text ?? '', resolve)),
    );
    const typedOver = { slug: 'demo', text: 'rep' };
    const latest = { slug: 'demo', text: 'report' };
    const first = store.dispatch(activityApi.endpoints.activity.initiate(typedOver));
    const second = store.dispatch(activityApi.endpoints.activity.initiate(latest));
    await Promise.resolve();
    pending.get('report')!(answer(1, [2], false));
    await second;
    pending.get('rep')!(answer(1, [1], false));
    await first;
    expect(listOf(store, latest).packages.map((p) => p.id)).toEqual([2]);
    expect(listOf(store, typedOver).packages.map((p) => p.id)).toEqual([1]);
  });

  it('reads nothing loaded as an empty list', () => {
    expect(activityList(undefined)).toEqual({ packages: [], total: 0, hasMore: false });
  });
});
