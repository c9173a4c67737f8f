import type { Membership, User } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';

/** The calls of the profile screen (spec 000 section 7). */
export const profileApi = {
  /** Multipart: first_name, last_name, mobile, mobile_confirm, timezone, avatar, clear_avatar. */
  update: (api: ApiClient, form: FormData) => api.post<User>('/user/', form),
  updateSettings: (api: ApiClient, showSelectStorage: boolean) =>
    api.post<User>('/user/update_settings/', { show_select_storage: showSelectStorage }),
  updatePassword: (
    api: ApiClient,
    body: { password_current: string; password_new: string; password_new_confirm: string },
  ) => api.post<{ detail: string }>('/user/update_password/', body),
  permissions: (api: ApiClient) => api.get<Membership[]>('/user/permissions/'),
};
