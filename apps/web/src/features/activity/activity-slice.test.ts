import { describe, expect, it } from 'vitest';
import type { ActivityPackage, ActivityPage } from '@filerunner/protocol';
import { activityReducer, loadActivity } from './activity-slice';

const pkg = (id: number) => ({ id, slug: `p${id}`, name: `Package ${id}` }) as ActivityPackage;
const answer = (page: number, ids: number[], hasMore: boolean): ActivityPage => ({
  packages: ids.map(pkg),
  page,
  total: 20,
  has_more: hasMore,
});
const args = (page: number, search = '') => ({ slug: 'demo', search, page });

describe('activity slice', () => {
  it("appends the pages that 'Load more' fetches", () => {
    let state = activityReducer(undefined, loadActivity.pending('r1', args(1)));
    state = activityReducer(state, loadActivity.fulfilled(answer(1, [1, 2], true), 'r1', args(1)));
    state = activityReducer(state, loadActivity.pending('r2', args(2)));
    expect(state.packages).toHaveLength(2);
    state = activityReducer(state, loadActivity.fulfilled(answer(2, [3], false), 'r2', args(2)));
    expect(state.packages.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(state).toMatchObject({ page: 2, total: 20, hasMore: false, status: 'fulfilled' });
  });

  it('starts over for a new search and drops the answer of the one typed over', () => {
    let state = activityReducer(undefined, loadActivity.pending('r1', args(1)));
    state = activityReducer(state, loadActivity.fulfilled(answer(1, [1, 2], true), 'r1', args(1)));
    state = activityReducer(state, loadActivity.pending('r2', args(1, 'rep')));
    state = activityReducer(state, loadActivity.pending('r3', args(1, 'report')));
    expect(state).toMatchObject({ search: 'report', packages: [], status: 'pending' });
    state = activityReducer(
      state,
      loadActivity.fulfilled(answer(1, [1], false), 'r2', args(1, 'rep')),
    );
    expect(state.packages).toEqual([]);
    state = activityReducer(
      state,
      loadActivity.fulfilled(answer(1, [2], false), 'r3', args(1, 'report')),
    );
    expect(state.packages.map((p) => p.id)).toEqual([2]);
  });
});
