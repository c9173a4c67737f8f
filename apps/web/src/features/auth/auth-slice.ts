import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@filerunner/protocol';
import { resetClientState } from '../../app/reset';
import { profileApi } from '../profile/profile-api';
import { authApi } from './auth-api';

/** What this side knows of the session; the server's answers themselves live in the API cache. */
export interface AuthState {
  /** The signed-in user; kept in localStorage so a reload can render at once. */
  user: User | null;
  /** Known to be signed out (a sign-out, or the server said so): nobody to ask the server about. */
  signedOut: boolean;
  /** When the session ends, in epoch ms, from the `Expires` header of the latest answer. */
  sessionExpires: number | null;
}

export const initialAuthState: AuthState = {
  user: null,
  signedOut: false,
  sessionExpires: null,
};

const { getUser, authenticate } = authApi.endpoints;
const { updateProfile, updateSettings } = profileApi.endpoints;

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    sessionExpiresReceived(state, action: PayloadAction<number>) {
      state.sessionExpires = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      // After a reset it is known that nobody is signed in, so no user load is needed.
      .addCase(resetClientState, () => ({ ...initialAuthState, signedOut: true }))
      .addMatcher(getUser.matchRejected, (state, action) => {
        const status = action.payload?.status ?? 0;
        // A 4xx means there is no session: forget the user and let the login redirect happen.
        // Anything else (5xx, no answer) says nothing about the session, so the user is kept and
        // the shell shows the error page instead of sending them to log in.
        if (status >= 400 && status < 500) {
          state.user = null;
          state.signedOut = true;
        }
      })
      .addMatcher(authenticate.matchFulfilled, (state) => {
        state.signedOut = false;
      })
      .addMatcher(
        isAnyOf(
          getUser.matchFulfilled,
          authenticate.matchFulfilled,
          updateProfile.matchFulfilled,
          updateSettings.matchFulfilled,
        ),
        (state, action) => {
          state.user = action.payload;
        },
      );
  },
});

export const { sessionExpiresReceived } = authSlice.actions;
export const authReducer = authSlice.reducer;
