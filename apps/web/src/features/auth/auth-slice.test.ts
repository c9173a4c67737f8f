import { describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { api, messages, type ApiRoute, type User } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import { ApiError, type ApiClient } from '../../app/api-client';
import { resetClientState } from '../../app/reset';
import { profileApi } from '../profile/profile-api';
import { authApi, logout } from './auth-api';
import { authReducer, initialAuthState, sessionExpiresReceived } from './auth-slice';

const user = { id: 1, email: 'a@example.com', show_select_storage: false } as User;

const failure = (status: number, body?: unknown) =>
  new ApiError(status ? 'HTTP_ERROR' : 'NETWORK_ERROR', status, body, `failed ${status}`);

/** A store of the auth area and the API cache, whose calls `answer` answers. */
function storeAnswering(answer: (route: ApiRoute) => unknown, signedInAs: User | null = user) {
  const calls: string[] = [];
  const client: ApiClient = {
    call: (async (route: ApiRoute) => {
      calls.push(`${String(route.method)} ${route.path}`);
      return answer(route);
    }) as ApiClient['call'],
  };
  const store = configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer, auth: authReducer },
    preloadedState: { auth: { ...initialAuthState, user: signedInAs } },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { api: client } } }).concat(apiSlice.middleware),
  });
  // The app's thunks are typed for the app's whole store; this one has the areas they touch.
  const signOut = () => store.dispatch(logout() as never) as Promise<void>;
  return { store, calls, signOut };
}

const throwing = (error: unknown) => () => {
  throw error;
};

describe('the signed-in user', () => {
  it('is forgotten when loading it answers 4xx, so the login redirect happens', async () => {
    const { store } = storeAnswering(throwing(failure(401, { detail: 'no' })));
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
  });

  it('is kept when loading it answers 5xx or nothing (the shell shows the error page)', async () => {
    for (const status of [500, 503, 0]) {
      const { store } = storeAnswering(throwing(failure(status)));
      await store.dispatch(authApi.endpoints.getUser.initiate());
      expect(store.getState().auth).toMatchObject({ user, signedOut: false });
    }
  });

  it('follows the answers that carry it: GET /user/ and the settings', async () => {
    const fresh = { ...user, show_select_storage: true };
    const { store } = storeAnswering(() => fresh, null);
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(store.getState().auth.user).toEqual(fresh);
    const saved = { ...fresh, show_select_storage: false };
    const settings = storeAnswering(() => saved);
    await settings.store.dispatch(
      profileApi.endpoints.updateSettings.initiate({ body: { show_select_storage: false } }),
    );
    expect(settings.store.getState().auth.user).toEqual(saved);
  });
});

describe('the login form', () => {
  const credentials = { body: { email: 'a@example.com', password: 'pw' } };

  it('is Loading, then signed in with the user cached, so the shell asks nothing more', async () => {
    const { store, calls } = storeAnswering(() => user, null);
    const result = store.dispatch(authApi.endpoints.authenticate.initiate(credentials));
    expect(store.getState().auth.status).toBe('Loading');
    await result;
    expect(store.getState().auth).toMatchObject({ status: 'Idle', user, signedOut: false });
    await vi.waitFor(() =>
      expect(authApi.endpoints.getUser.select()(store.getState()).data).toEqual(user),
    );
    expect(calls).toEqual(['POST /authenticate/']);
  });

  it('fails with the one message that does not say which field was wrong', async () => {
    const { store } = storeAnswering(throwing(failure(400, { detail: 'Wrong password.' })), null);
    await store.dispatch(authApi.endpoints.authenticate.initiate(credentials));
    expect(store.getState().auth).toMatchObject({
      status: 'Failed',
      loginError: messages.login.failed,
      user: null,
    });
  });

  it("shows the server's words when there were too many attempts", async () => {
    const detail = 'Too many attempts. Try again in 15 minutes.';
    const { store } = storeAnswering(throwing(failure(429, { detail })), null);
    await store.dispatch(authApi.endpoints.authenticate.initiate(credentials));
    expect(store.getState().auth.loginError).toBe(detail);
  });
});

describe('signing out', () => {
  it('ends the session, then forgets the user and every cached answer', async () => {
    const { store, calls, signOut } = storeAnswering((route) =>
      route === api.accounts.logout ? undefined : user,
    );
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(Object.keys(store.getState().api.queries)).not.toHaveLength(0);
    await signOut();
    expect(calls).toContain('POST /logout/');
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
    expect(store.getState().api.queries).toEqual({});
  });

  it('clears this side even when the session is already gone on the server', async () => {
    const { store, signOut } = storeAnswering(throwing(failure(401)));
    await signOut();
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
  });

  it('keeps the session expiry until a reset clears everything', () => {
    const withExpiry = authReducer({ ...initialAuthState, user }, sessionExpiresReceived(123));
    expect(withExpiry.sessionExpires).toBe(123);
    const reset = authReducer(withExpiry, resetClientState());
    expect(reset).toMatchObject({ user: null, sessionExpires: null, signedOut: true });
  });
});
