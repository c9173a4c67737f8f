import { api } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';

/**
 * The user's API keys. The secret of a new key is never cached: it is in the create answer only,
 * shown once and dropped.
 */
export const apiKeysApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listApiKeys: query(build, api.apiKeys.list, { providesTags: ['ApiKeys'] }),
    createApiKey: mutation(build, api.apiKeys.create, { invalidatesTags: ['ApiKeys'] }),
    revokeApiKey: mutation(build, api.apiKeys.revoke, { invalidatesTags: ['ApiKeys'] }),
  }),
});

export const { useListApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;
