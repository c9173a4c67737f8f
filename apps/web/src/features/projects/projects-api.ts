import { createSelector } from '@reduxjs/toolkit';
// The area, not the whole route table: the app loads this file at start (see auth-api).
import { contractRoutes, type Contract } from '@filerunner/protocol';
import { apiSlice, query } from '../../app/api';
import type { RootState } from '../../app/store';

/** The contracts (projects) the user belongs to, with their permissions and settings. */
export const projectsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    contracts: query(build, contractRoutes.list, { providesTags: ['Contracts'] }),
  }),
});

export const { useContractsQuery } = projectsApi;

const noContracts: Contract[] = [];
const selectContractsResult = projectsApi.endpoints.contracts.select();

/** The user's projects as last loaded; none until the shell has them. */
export const selectContracts = createSelector(
  selectContractsResult,
  (result) => result.data ?? noContracts,
);

/** The remembered project if the user still has it, else the first. */
export function pickContract(contracts: Contract[], preferred: string | null): Contract | null {
  return contracts.find((c) => c.slug === preferred) ?? contracts[0] ?? null;
}

/** The project the screens work on: the one picked (or remembered), else the first. */
export function selectSelectedContract(state: RootState): Contract | null {
  return pickContract(selectContracts(state), state.projects.selectedSlug);
}
