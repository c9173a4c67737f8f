import { api } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';

/**
 * The calls of the Share screen: whom the sender may send to, and creating the package. A
 * create registers ad-hoc recipients on the contract, so the lists of people are read again.
 */
export const shareApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    recipients: query(build, api.recipients.list, { providesTags: ['Recipients'] }),
    createPackage: mutation(build, api.packages.create, {
      invalidatesTags: ['Recipients', 'ContractUsers'],
    }),
  }),
});

export const { useRecipientsQuery, useCreatePackageMutation } = shareApi;
