import type { Branding } from '@filerunner/protocol';
import { ApiError, type ApiClient } from '../../app/api-client';

/** What a branding save may change; `logo` is a data URL, or null to remove the logo. */
export interface BrandingChange {
  name?: string;
  alias?: string;
  colour?: Branding['colour'];
  logo?: string | null;
}

/** The projects (branding) service, served by the API under /api/projects/. */
export const brandingApi = {
  all: (api: ApiClient) => api.get<Branding[]>('/projects/'),
  /** A project's branding, or null when none was saved yet (the service answers 404). */
  async one(api: ApiClient, slug: string): Promise<Branding | null> {
    try {
      return await api.get<Branding>(`/projects/${encodeURIComponent(slug)}/`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
  update: (api: ApiClient, slug: string, change: BrandingChange) =>
    api.request<Branding>(`/projects/${encodeURIComponent(slug)}/`, {
      method: 'PATCH',
      body: change,
    }),
};
