// The accounts area of the route table, not the whole table: the login page loads this file, and
// the other areas stay with the screens that call them.
import { accountRoutes, type User } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';
import { resetClientState } from '../../app/reset';
import type { AppDispatch as Dispatch } from '../../app/store';

/** The signed-in user, as the shell confirms it when the app loads. */
const userApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getUser: query(build, accountRoutes.user, { providesTags: ['User'] }),
  }),
});

/**
 * For the calls that answer with the user (sign-in, profile, settings): the answer becomes the
 * cached `GET /user/`, so the shell does not ask again right after a sign-in.
 */
export function keepAnsweredUser(user: User, _args: unknown, dispatch: Dispatch): void {
  void dispatch(userApi.util.upsertQueryData('getUser', undefined, user));
}

/** The session and account calls, the screens outside the shell included. */
export const authApi = userApi.injectEndpoints({
  endpoints: (build) => ({
    authenticate: mutation(build, accountRoutes.authenticate, { onAnswer: keepAnsweredUser }),
    logout: mutation(build, accountRoutes.logout),
    extendSession: mutation(build, accountRoutes.extendSession),
    forgotPassword: mutation(build, accountRoutes.forgotPassword),
    // Checks of a mailed link: made once per visit of the page, never answered from a cache.
    checkResetToken: mutation(build, accountRoutes.resetPasswordCheck),
    resetPassword: mutation(build, accountRoutes.resetPassword),
    checkActivationToken: mutation(build, accountRoutes.activationTokenCheck),
    activate: mutation(build, accountRoutes.activate),
  }),
});

export const {
  useGetUserQuery,
  useAuthenticateMutation,
  useExtendSessionMutation,
  useForgotPasswordMutation,
  useCheckResetTokenMutation,
  useResetPasswordMutation,
  useCheckActivationTokenMutation,
  useActivateMutation,
} = authApi;

/**
 * Forgets everything of the signed-in user on this side: every store area and every cached
 * answer (a cache left behind would show this user's data to the next one).
 */
export const forgetSession = () => (dispatch: Dispatch) => {
  dispatch(resetClientState());
  dispatch(apiSlice.util.resetApiState());
};

/** Ends the session on the server (best effort) and forgets everything on this side. */
export const logout = () => async (dispatch: Dispatch) => {
  try {
    await dispatch(authApi.endpoints.logout.initiate()).unwrap();
  } catch {
    // The session may already be gone (expired, or ended by a password change); the client
    // state is cleared either way.
  }
  dispatch(forgetSession());
};
