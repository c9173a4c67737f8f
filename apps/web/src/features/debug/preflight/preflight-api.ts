import { api } from '@filerunner/protocol';
import { apiSlice, mutation } from '../../../app/api';

/** The pre-flight check's probe: made, then removed, once per check. */
export const preflightApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    createPreflightProbe: mutation(build, api.preflight.createProbe),
    removePreflightProbe: mutation(build, api.preflight.removeProbe),
  }),
});

export const { useCreatePreflightProbeMutation, useRemovePreflightProbeMutation } = preflightApi;
