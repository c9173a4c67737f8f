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
  /**
   * The session ended while this page had uploads under way (signed out in another tab, or an
   * upload's call refused): the page keeps its state and its uploads, paused, and waits for
   * someone to sign in again rather than leaving for the login page.
   */
  sessionLost: boolean;
}

export const initialAuthState: AuthState = {
  user: null,
  signedOut: false,
  sessionExpires: null,
  sessionLost: false,
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
    /** See `sessionLost`; only a signed-in page has a session to lose. */
    sessionLost(state) {
      if (state.user) state.sessionLost = true;
    },
    /** The same person signed in again (in another tab): the page goes on where it was. */
    sessionRegained(state) {
      state.sessionLost = false;
    },
  },
  extraReducers: (builder) => {
    builder
      // After a reset it is known that nobody is signed in, so no user load is needed.
      .addCase(resetClientState, () => ({ ...initialAuthState, signedOut: true }))
      .addMatcher(getUser.matchRejected, (state, action) => {
        // Refused while the page waits for a sign-in elsewhere: it keeps what it has.
        if (state.sessionLost) return;
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
        state.sessionLost = false;
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

export const { sessionExpiresReceived, sessionLost, sessionRegained } = authSlice.actions;
export const authReducer = authSlice.reducer;
