import type { InfiniteData } from '@reduxjs/toolkit/query';
import { api, type ActivityPackage, type ActivityPage } from '@filerunner/protocol';
import { apiSlice, mutation, pagedQuery } from '../../app/api';

/** A search of one project's activity; each has its own pages, so a new one starts at page 1. */
export interface ActivitySearch {
  slug: string;
  text: string;
}

export const activityApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The project's activity for a search, a page (15 packages) at a time: 'Load more' fetches
     * the next page into the same list. The answer of a search typed over lands in that
     * search's own entry, so it never shows under another.
     */
    activity: pagedQuery(
      build,
      api.activity.page,
      (search: ActivitySearch, page) => ({
        params: { contract: search.slug },
        query: { text: search.text || undefined, page },
      }),
      { providesTags: ['Activity'] },
    ),
    /** Asks for the CSV report; the server mails it to the signed-in admin. */
    exportActivityCsv: mutation(build, api.activity.exportCsv),
  }),
});

export const { useActivityInfiniteQuery, useExportActivityCsvMutation } = activityApi;

/** The pages loaded so far as one list, with the search's total and whether more remain. */
export function activityList(data: InfiniteData<ActivityPage, number> | undefined): {
  packages: ActivityPackage[];
  total: number;
  hasMore: boolean;
} {
  const pages = data?.pages ?? [];
  const last = pages[pages.length - 1];
  return {
    packages: pages.flatMap((p) => p.packages),
    total: last?.total ?? 0,
    hasMore: last?.has_more ?? false,
  };
}
