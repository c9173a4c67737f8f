// The area, not the whole route table: the store loads this file at start (see auth-api).
import { accountRoutes } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';
import { keepAnsweredUser } from '../auth/auth-api';

/** The calls of the profile screen. */
export const profileApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /** Multipart: first_name, last_name, mobile, mobile_confirm, timezone, avatar, clear_avatar. */
    updateProfile: mutation(build, accountRoutes.updateProfile, {
      onAnswer: keepAnsweredUser,
    }),
    updateSettings: mutation(build, accountRoutes.updateSettings, {
      onAnswer: keepAnsweredUser,
    }),
    updatePassword: mutation(build, accountRoutes.updatePassword),
    getMemberships: query(build, accountRoutes.memberships, { providesTags: ['Memberships'] }),
  }),
});

export const {
  useUpdateProfileMutation,
  useUpdateSettingsMutation,
  useUpdatePasswordMutation,
  useGetMembershipsQuery,
} = profileApi;
