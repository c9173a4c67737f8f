import { useDeferredValue } from 'react';
import type { InfiniteData } from '@reduxjs/toolkit/query';
import {
  api,
  type PackageFile,
  type PackageFilesPage,
  type ReceivedPackage,
} from '@filerunner/protocol';
import { apiSlice, mutation, pagedQuery, query } from '../../app/api';
import type { AppDispatch } from '../../app/store';

/** The received packages of one project; each project has its own pages. */
export interface ReceivedListArg {
  slug: string;
}

/**
 * A package changed by a call that answers it (seen, expiry extended) is written into the
 * cached detail and into every loaded page of the lists, so the list row and the badge follow
 * at once without reading the pages again.
 */
function showReceived(saved: ReceivedPackage, wasUnseen: boolean) {
  return (dispatch: AppDispatch, getState: () => unknown) => {
    dispatch(
      inboxApi.util.upsertQueryData('receivedPackage', { params: { slug: saved.slug } }, saved),
    );
    const lists = inboxApi.util.selectInvalidatedBy(getState() as never, ['Received']);
    for (const entry of lists) {
      if (entry.endpointName !== 'receivedList') continue;
      dispatch(
        inboxApi.util.updateQueryData(
          'receivedList',
          entry.originalArgs as ReceivedListArg,
          (data) => {
            for (const page of data.pages) {
              const index = page.packages.findIndex((p) => p.slug === saved.slug);
              if (index >= 0) page.packages[index] = saved;
              if (wasUnseen && saved.seen) {
                page.unseen = Math.max(0, page.unseen - 1);
                const slug = saved.contract.slug;
                const count = page.unseen_by_contract[slug];
                if (count !== undefined) page.unseen_by_contract[slug] = Math.max(0, count - 1);
              }
            }
          },
        ),
      );
    }
  };
}

/** The calls of the Inbox: received packages, their files, seen, expiry and download grants. */
export const inboxApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The project's received packages, newest first, a page (15) at a time: 'Load more' adds
     * the next page to the same list. Page 1 asks the server to start the list over.
     */
    receivedList: pagedQuery(
      build,
      api.inbox.receivedList,
      (list: ReceivedListArg, page) => ({
        query: { page, contract_slug: list.slug, ...(page === 1 ? { clear: true } : {}) },
      }),
      { providesTags: ['Received'] },
    ),
    receivedPackage: query(build, api.inbox.received, { providesTags: ['Received'] }),
    /** A received package's files, a page at a time. */
    receivedFiles: pagedQuery(
      build,
      api.inbox.receivedFiles,
      (slug: string, page) => ({ params: { slug }, query: { page } }),
      { providesTags: ['Received'] },
    ),
    markSeen: mutation(build, api.inbox.markSeen, {
      onAnswer: (saved, _args, dispatch) => dispatch(showReceived(saved, true)),
    }),
    extendExpiry: mutation(build, api.inbox.extendExpiry, {
      onAnswer: (saved, _args, dispatch) => dispatch(showReceived(saved, false)),
    }),
    /** Grants expire, so each download asks afresh: a change, never a cached read. */
    packageDownloadGrant: mutation(build, api.downloads.packageGrant),
    fileDownloadGrant: mutation(build, api.downloads.fileGrant),
    /** A receipt challenge and, on its answers, a signed receipt: asked by the download engine. */
    receiptChallenge: mutation(build, api.receipts.challenge),
    deliveryReceipt: mutation(build, api.receipts.issue),
  }),
});

export const {
  useReceivedListInfiniteQuery,
  useReceivedPackageQuery,
  useReceivedFilesInfiniteQuery,
  useMarkSeenMutation,
  useExtendExpiryMutation,
  usePackageDownloadGrantMutation,
  useFileDownloadGrantMutation,
  useReceiptChallengeMutation,
  useDeliveryReceiptMutation,
} = inboxApi;

/**
 * Pages of a list as one list, whether more remain, the newest page's other fields, and whether
 * any page has arrived. The pages are taken deferred: an answer from the store renders at once and
 * in one task, while a deferred value renders as a transition, which React draws in slices that
 * let a tap through (a long page of rows or files on a slow phone).
 */
export function usePagedList<P extends { has_more: boolean }, T>(
  data: InfiniteData<P, number> | undefined,
  items: (page: P) => T[],
): { items: T[]; hasMore: boolean; last: P | undefined; loaded: boolean } {
  const shown = useDeferredValue(data);
  const pages = shown?.pages ?? [];
  const last = pages[pages.length - 1];
  return {
    items: pages.flatMap(items),
    hasMore: last?.has_more ?? false,
    last,
    loaded: shown !== undefined,
  };
}

export const filesOf = (page: PackageFilesPage): PackageFile[] => page.files;
