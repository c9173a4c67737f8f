import { createSlice } from '@reduxjs/toolkit';
import type { ActivityPackage } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import type { AsyncStatus } from '../../app/async-status';
import { createAppAsyncThunk } from '../../app/thunk';
import { activityApi } from './activity-api';

/** The admin's activity view of a project: the pages loaded so far for one search. */
export interface ActivityState {
  slug: string | null;
  search: string;
  packages: ActivityPackage[];
  page: number;
  total: number;
  hasMore: boolean;
  status: AsyncStatus;
  /** The latest request; answers to older ones (a search typed over) are dropped. */
  requestId: string | null;
}

const initialState: ActivityState = {
  slug: null,
  search: '',
  packages: [],
  page: 0,
  total: 0,
  hasMore: false,
  status: 'idle',
  requestId: null,
};

export const loadActivity = createAppAsyncThunk(
  'activity/load',
  async (args: { slug: string; search: string; page: number }, { extra, rejectWithValue }) => {
    try {
      return await activityApi.page(extra.api, args.slug, args.search, args.page);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      return rejectWithValue({ status, message: String(error) });
    }
  },
);

const activitySlice = createSlice({
  name: 'activity',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(loadActivity.pending, (state, action) => {
        const { slug, search, page } = action.meta.arg;
        // A first page for another project or search starts a new list; 'Load more' extends it.
        if (page === 1 && (slug !== state.slug || search !== state.search)) {
          Object.assign(state, { ...initialState, slug, search });
        }
        state.status = 'pending';
        state.requestId = action.meta.requestId;
      })
      .addCase(loadActivity.fulfilled, (state, action) => {
        if (action.meta.requestId !== state.requestId) return;
        const { page, packages, total, has_more } = action.payload;
        state.packages = page === 1 ? packages : [...state.packages, ...packages];
        state.page = page;
        state.total = total;
        state.hasMore = has_more;
        state.status = 'fulfilled';
      })
      .addCase(loadActivity.rejected, (state, action) => {
        if (action.meta.requestId === state.requestId) state.status = 'rejected';
      });
  },
});

export const activityReducer = activitySlice.reducer;
