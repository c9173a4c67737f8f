import { api } from '@filerunner/protocol';
import { apiSlice, query } from '../../../app/api';

/** The hosts the latency page times, as the server's LATENCY_HOSTS setting lists them. */
export const latencyApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    latencyHosts: query(build, api.latency.hosts),
  }),
});

export const { useLatencyHostsQuery } = latencyApi;
