import type { Contract, ContractSettings } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';

/**
 * The fields `POST /contracts/{slug}/settings/` takes; any left out keep their saved value.
 * `storage_app_groups` is the contract's whole list of storage locations: an entry with an id
 * keeps (and renames) that location, one without creates a location, and any left out go.
 */
export type SettingsChange = Partial<ContractSettings> & {
  storage_app_groups?: { id?: number; name: string }[];
};

/** The answer: the saved settings and the storage locations as saved, with their ids. */
export interface SettingsAnswer {
  detail: string;
  settings: ContractSettings;
  storage_app_groups: Contract['storage_app_groups'];
}

export const settingsApi = {
  save: (api: ApiClient, slug: string, change: SettingsChange) =>
    api.post<SettingsAnswer>(`/contracts/${encodeURIComponent(slug)}/settings/`, change),
};
