import type { ActivationTokenCheck } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';

/** The account calls of the screens outside the shell (spec 000 section 7). */
export const authApi = {
  forgotPassword: (api: ApiClient, email: string) =>
    api.post<{ detail: string }>('/user/forgot_password/', { email }),
  checkResetToken: (api: ApiClient, uid: string, token: string) =>
    api.post<{ success: boolean }>('/user/reset_password_check/', { uid, token }),
  resetPassword: (
    api: ApiClient,
    body: { uid: string; token: string; password: string; password_confirm: string },
  ) => api.post<{ success: boolean }>('/user/reset_password/', body),
  checkActivationToken: (api: ApiClient, uid: string, token: string) =>
    api.post<ActivationTokenCheck>('/user/activation_token_check/', { uid, token }),
  activate: (
    api: ApiClient,
    body: {
      uid: string;
      token: string;
      name: string;
      mobile: string;
      password: string;
      password_confirm: string;
    },
  ) => api.post<{ success: boolean }>('/user/activate/', body),
};
