import { api, type SentPackage } from '@filerunner/protocol';
import { apiSlice, mutation, pagedQuery, query } from '../../app/api';
import type { AppDispatch } from '../../app/store';

export interface SentListArg {
  slug: string;
}

/**
 * A recipient change answers with the package as it now is: written into the cached detail at
 * once (the row dims, the status shows) and into the loaded list pages.
 */
function showSent(saved: SentPackage, dispatch: AppDispatch) {
  dispatch(sentApi.util.upsertQueryData('sentPackage', { params: { slug: saved.slug } }, saved));
  dispatch(
    sentApi.util.updateQueryData('sentList', { slug: saved.contract.slug }, (data) => {
      for (const page of data.pages) {
        const index = page.packages.findIndex((p) => p.slug === saved.slug);
        if (index >= 0) page.packages[index] = saved;
      }
    }),
  );
}

/** The calls of the Sent screen: sent packages, their files and their recipients. */
export const sentApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /** The project's sent packages, newest first, a page (20) at a time. */
    sentList: pagedQuery(
      build,
      api.inbox.sentList,
      (list: SentListArg, page) => ({ query: { page, contract_slug: list.slug } }),
      { providesTags: ['Sent'] },
    ),
    sentPackage: query(build, api.inbox.sent, { providesTags: ['Sent'] }),
    sentFiles: pagedQuery(
      build,
      api.inbox.sentFiles,
      (slug: string, page) => ({ params: { slug }, query: { page } }),
      { providesTags: ['Sent'] },
    ),
    /** Each download's files, verification and receipt: read when a history is opened. */
    downloadHistory: query(build, api.downloadHistory.packageHistory, { providesTags: ['Sent'] }),
    // Adding may register new addresses on the contract: the people lists are read again.
    addRecipients: mutation(build, api.inbox.addRecipients, {
      invalidatesTags: ['Recipients', 'ContractUsers'],
      onAnswer: (saved, _args, dispatch) => showSent(saved, dispatch),
    }),
    removeRecipient: mutation(build, api.inbox.removeRecipient, {
      onAnswer: (saved, _args, dispatch) => showSent(saved, dispatch),
    }),
    updateRecipient: mutation(build, api.inbox.updateRecipient, {
      onAnswer: (saved, _args, dispatch) => showSent(saved, dispatch),
    }),
    /** The sender's own copy; asked afresh for each download, as a recipient's grants are. */
    sentPackageGrant: mutation(build, api.downloads.sentPackageGrant),
    sentFileGrant: mutation(build, api.downloads.sentFileGrant),
  }),
});

export const {
  useSentListInfiniteQuery,
  useSentPackageQuery,
  useSentFilesInfiniteQuery,
  useDownloadHistoryQuery,
  useAddRecipientsMutation,
  useRemoveRecipientMutation,
  useUpdateRecipientMutation,
  useSentPackageGrantMutation,
  useSentFileGrantMutation,
} = sentApi;
