import { api } from '@filerunner/protocol';
import { mutation, query } from '../../app/api';
import { projectsApi } from '../projects/projects-api';

/** A project's settings, saved from the General tab, and its storage as the operator limits it. */
export const settingsApi = projectsApi.injectEndpoints({
  endpoints: (build) => ({
    contractStorage: query(build, api.contracts.storage),
    saveContractSettings: mutation(build, api.contracts.updateSettings, {
      // The answer is what the server saved: it goes into the cached project list rather than
      // reloading the list, so a switch shows its new value at once and the form stays as it is.
      onAnswer: (saved, { params }, dispatch) =>
        dispatch(
          projectsApi.util.updateQueryData('contracts', undefined, (contracts) => {
            const contract = contracts.find((c) => c.slug === params.slug);
            if (!contract) return;
            contract.settings = saved.settings;
            contract.storage_app_groups = saved.storage_app_groups;
          }),
        ),
    }),
  }),
});

export const { useSaveContractSettingsMutation, useContractStorageQuery } = settingsApi;
