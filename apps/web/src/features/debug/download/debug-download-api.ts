import { api } from '@filerunner/protocol';
import { apiSlice, query } from '../../../app/api';

/**
 * The packages the debug page offers: the person's received packages in every project, a
 * server page (15) at a time, which the page shows five at a time.
 */
export const debugDownloadApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    debugReceivedPackages: query(build, api.inbox.receivedList, { providesTags: ['Received'] }),
  }),
});

export const { useDebugReceivedPackagesQuery } = debugDownloadApi;
