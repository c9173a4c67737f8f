import type { ContractSettings } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';

/** The fields `POST /contracts/{slug}/settings/` takes; any left out keep their saved value. */
export type SettingsChange = Partial<ContractSettings>;

export const settingsApi = {
  save: (api: ApiClient, slug: string, change: SettingsChange) =>
    api.post<{ detail: string; settings: ContractSettings }>(
      `/contracts/${encodeURIComponent(slug)}/settings/`,
      change,
    ),
};
