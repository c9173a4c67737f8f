import { describe, expect, it, vi } from 'vitest';
import type { ActivityPackage, ActivityPage } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { activityApi, activityList, type ActivitySearch } from './activity-api';

const pkg = (id: number) => ({ id, slug: `p${id}`, name: `Package ${id}` }) as ActivityPackage;
const answer = (page: number, ids: number[], hasMore: boolean): ActivityPage => ({
  packages: ids.map(pkg),
  page,
  total: 20,
  has_more: hasMore,
});

type PageArgs = { params: { contract: string }; query: { text?: string; page: number } };

/** A store whose client answers each activity page asked with `answerOf`. */
function pagesAnswering(answerOf: (args: PageArgs) => Promise<ActivityPage>) {
  // This store is asked for activity pages only.
  return storeAnswering((_route, args) => answerOf(args as PageArgs));
}

const listOf = (store: ReturnType<typeof pagesAnswering>['store'], search: ActivitySearch) =>
  activityList(activityApi.endpoints.activity.select(search)(store.getState()).data);

describe('activity', () => {
  it("appends the pages that 'Load more' fetches", async () => {
    const { store } = pagesAnswering(async ({ query }) =>
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
    const { store } = pagesAnswering(
      ({ query }) => new Promise((resolve) => pending.set(query.text ?? '', resolve)),
    );
    const typedOver = { slug: 'demo', text: 'rep' };
    const latest = { slug: 'demo', text: 'report' };
    const first = store.dispatch(activityApi.endpoints.activity.initiate(typedOver));
    const second = store.dispatch(activityApi.endpoints.activity.initiate(latest));
    await vi.waitFor(() => expect([...pending.keys()]).toEqual(['rep', 'report']));
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
