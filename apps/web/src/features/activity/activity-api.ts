import type { ActivityPage } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';
import type { exportBody } from './export-form';

export const activityApi = {
  /** One page (15 packages) of the project's activity, matching `text` on the server. */
  page: (api: ApiClient, slug: string, text: string, page: number) =>
    api.get<ActivityPage>(`/packages/${encodeURIComponent(slug)}/activity/`, {
      text: text || undefined,
      page,
    }),
  /** Asks for the CSV report; the server mails it to the signed-in admin. */
  exportCsv: (api: ApiClient, slug: string, body: ReturnType<typeof exportBody>) =>
    api.post<{ detail: string; date_from: string; date_to: string }>(
      `/contracts/${encodeURIComponent(slug)}/activity/csv/`,
      body,
    ),
};
