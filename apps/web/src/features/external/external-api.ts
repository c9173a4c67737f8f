import { api } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';

/**
 * The calls of the external package page, all made with the mailed link's key instead of a
 * session. Download grants are asked for at the moment of the click and never cached: each one
 * is a fresh signed URL.
 */
export const externalApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    externalPackage: query(build, api.inbox.externalFiles),
    externalPackageGrant: mutation(build, api.inbox.externalPackageGrant),
    externalFileGrant: mutation(build, api.inbox.externalFileGrant),
    /** The link holder's receipt challenge and receipt, asked by the download engine. */
    externalReceiptChallenge: mutation(build, api.receipts.challengeExternal),
    externalDeliveryReceipt: mutation(build, api.receipts.issueExternal),
  }),
});

export const {
  useExternalPackageQuery,
  useExternalPackageGrantMutation,
  useExternalFileGrantMutation,
  useExternalReceiptChallengeMutation,
  useExternalDeliveryReceiptMutation,
} = externalApi;
