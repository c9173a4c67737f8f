import { api } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';
import { keepAnsweredUser } from '../auth/auth-api';

/** The calls of the profile screen. */
export const profileApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /** Multipart: first_name, last_name, mobile, mobile_confirm, timezone, avatar, clear_avatar. */
    updateProfile: mutation(build, api.accounts.updateProfile, {
      onAnswer: keepAnsweredUser,
    }),
    updateSettings: mutation(build, api.accounts.updateSettings, {
      onAnswer: keepAnsweredUser,
    }),
    updatePassword: mutation(build, api.accounts.updatePassword),
    getMemberships: query(build, api.accounts.memberships, { providesTags: ['Memberships'] }),
  }),
});

export const {
  useUpdateProfileMutation,
  useUpdateSettingsMutation,
  useUpdatePasswordMutation,
  useGetMembershipsQuery,
} = profileApi;
