import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { messages, type User } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import type { AsyncStatus } from '../../app/async-status';
import { resetClientState } from '../../app/reset';
import { createAppAsyncThunk } from '../../app/thunk';

/** The login form's progress (spec: Idle, Loading, Failed). */
export type AuthStatus = 'Idle' | 'Loading' | 'Failed';

export interface AuthState {
  user: User | null;
  status: AuthStatus;
  loginError: string | null;
  /** Loading the current user (`GET /user/`), which decides between the app and the login page. */
  userLoad: AsyncStatus;
  /** The user could not be loaded for a reason other than being signed out: show the error page. */
  userLoadFailed: boolean;
  /** When the session ends, in epoch ms, from the `Expires` header of the latest answer. */
  sessionExpires: number | null;
}

export const initialAuthState: AuthState = {
  user: null,
  status: 'Idle',
  loginError: null,
  userLoad: 'idle',
  userLoadFailed: false,
  sessionExpires: null,
};

export const loadUser = createAppAsyncThunk(
  'auth/loadUser',
  async (_: void, { extra, rejectWithValue }) => {
    try {
      return await extra.api.get<User>('/user/');
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      return rejectWithValue({ status, message: String(error) });
    }
  },
);

export const login = createAppAsyncThunk(
  'auth/login',
  async (credentials: { email: string; password: string }, { extra, rejectWithValue }) => {
    try {
      return await extra.api.post<User>('/authenticate/', credentials);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const tooMany = status === 429;
      const message = tooMany
        ? ((error as ApiError).detail ?? messages.login.tooManyAttempts)
        : messages.login.failed;
      return rejectWithValue({ status, message });
    }
  },
);

/** Ends the session on the server (best effort) and forgets everything on this side. */
export const logout = createAppAsyncThunk('auth/logout', async (_: void, { extra, dispatch }) => {
  try {
    await extra.api.post('/logout/');
  } catch {
    // The session may already be gone (expired, or ended by a password change); the client
    // state is cleared either way.
  }
  dispatch(resetClientState());
});

/** Asks for more session time; the answer's `Expires` header moves the countdown. */
export const extendSession = createAppAsyncThunk(
  'auth/extendSession',
  async (_: void, { extra }) => {
    await extra.api.post('/session/extend/');
  },
);

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    userReceived(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
    sessionExpiresReceived(state, action: PayloadAction<number>) {
      state.sessionExpires = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadUser.pending, (state) => {
        state.userLoad = 'pending';
        state.userLoadFailed = false;
      })
      .addCase(loadUser.fulfilled, (state, action) => {
        state.userLoad = 'fulfilled';
        state.user = action.payload;
      })
      .addCase(loadUser.rejected, (state, action) => {
        state.userLoad = 'rejected';
        const status = action.payload?.status ?? 0;
        // A 4xx means there is no session: forget the user and let the login redirect happen.
        // Anything else (5xx, no answer) says nothing about the session, so keep the user and
        // show the error page instead of sending them to log in.
        if (status >= 400 && status < 500) state.user = null;
        else state.userLoadFailed = true;
      })
      .addCase(login.pending, (state) => {
        state.status = 'Loading';
        state.loginError = null;
      })
      .addCase(login.fulfilled, (state, action) => {
        state.status = 'Idle';
        state.user = action.payload;
        state.userLoad = 'fulfilled';
        state.userLoadFailed = false;
      })
      .addCase(login.rejected, (state, action) => {
        state.status = 'Failed';
        state.loginError = action.payload?.message ?? messages.login.failed;
      })
      // After a reset it is known that nobody is signed in, so no user load is needed.
      .addCase(resetClientState, () => ({ ...initialAuthState, userLoad: 'fulfilled' }));
  },
});

export const { userReceived, sessionExpiresReceived } = authSlice.actions;
export const authReducer = authSlice.reducer;
