import { createSelector } from '@reduxjs/toolkit';
import { api, type Branding } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';
import type { RootState } from '../../app/store';
import { distinctAvatarTexts } from '../../components/project-initials';
import { selectContracts } from '../projects/projects-api';

/**
 * The projects (branding) service: the brandings the shell paints avatars and logos with, a
 * project's own branding for the Custom Branding tab, and its save.
 */
export const brandingApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    brandings: query(build, api.branding.list, { providesTags: ['Brandings'] }),
    /** A 404 is a project without saved branding; the tab shows an empty record for it. */
    branding: query(build, api.branding.get, {
      providesTags: (_result, _error, { params }) => [{ type: 'Brandings', id: params.contract }],
    }),
    updateBranding: mutation(build, api.branding.update, {
      // The answer is the saved branding: it goes straight into the cached list and the tab's
      // record, so the shell repaints at once and a first save needs no reload of the tab.
      onAnswer: (saved, { params }, dispatch) => {
        dispatch(
          brandingApi.util.upsertQueryEntries([
            { endpointName: 'branding', arg: { params }, value: saved },
          ]),
        );
        dispatch(
          brandingApi.util.updateQueryData('brandings', undefined, (list) => {
            const index = list.findIndex((b) => b.slug === saved.slug);
            if (index >= 0) list[index] = saved;
            else list.push(saved);
          }),
        );
      },
    }),
  }),
});

export const { useBrandingsQuery, useBrandingQuery, useUpdateBrandingMutation } = brandingApi;

const selectBrandingList = brandingApi.endpoints.brandings.select();

/** The saved brandings by project; none while they load, or when they could not be read. */
export const selectBrandingsBySlug = createSelector(
  selectBrandingList,
  (result): Record<string, Branding> =>
    Object.fromEntries((result.data ?? []).map((b) => [b.slug, b])),
);

/**
 * The avatar text of each of the person's projects, by project: aliases and initials told
 * apart, so no two avatars in the project strip read alike.
 */
export const selectAvatarTexts = createSelector(
  selectContracts,
  selectBrandingsBySlug,
  (contracts, brandings): Record<string, string> => {
    const texts = distinctAvatarTexts(
      contracts.map((c) => ({ name: c.name, alias: brandings[c.slug]?.alias })),
    );
    return Object.fromEntries(contracts.map((c, i) => [c.slug, texts[i]!]));
  },
);

export function selectBranding(state: RootState, slug: string | null): Branding | null {
  return slug ? (selectBrandingsBySlug(state)[slug] ?? null) : null;
}
