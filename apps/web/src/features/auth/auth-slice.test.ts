import { describe, expect, it, vi } from 'vitest';
import { api, type User } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { resetClientState } from '../../app/reset';
import { storeAnswering, type Answer } from '../../app/test-support/api-store';
import { profileApi } from '../profile/profile-api';
import { authApi, logout } from './auth-api';
import {
  authReducer,
  initialAuthState,
  sessionExpiresReceived,
  sessionLost,
  sessionRegained,
} from './auth-slice';

const user = { id: 1, email: 'a@example.com', show_select_storage: false } as User;

const failure = (status: number, body?: unknown) =>
  new ApiError(status ? 'HTTP_ERROR' : 'NETWORK_ERROR', status, body, `failed ${status}`);

/** The app's store, signed in as `signedInAs`, whose calls `answer` answers. */
function authStore(answer: Answer, signedInAs: User | null = user) {
  const { store, calls } = storeAnswering(answer, {
    preloadedState: { auth: { ...initialAuthState, user: signedInAs } },
  });
  const asked = () => calls.map(({ route }) => `${String(route.method)} ${route.path}`);
  const signOut = () => store.dispatch(logout());
  return { store, asked, signOut };
}

const throwing = (error: unknown) => () => {
  throw error;
};

describe('the signed-in user', () => {
  it('is forgotten when loading it answers 4xx, so the login redirect happens', async () => {
    const { store } = authStore(throwing(failure(401, { detail: 'no' })));
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
  });

  it('is kept while the session is lost with uploads to keep, until it is regained', async () => {
    const { store } = authStore(throwing(failure(401, { detail: 'no' })));
    store.dispatch(sessionLost());
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(store.getState().auth).toMatchObject({ user, signedOut: false, sessionLost: true });
    store.dispatch(sessionRegained());
    expect(store.getState().auth.sessionLost).toBe(false);
  });

  it('cannot be lost by a page nobody is signed in to', () => {
    expect(authReducer(initialAuthState, sessionLost()).sessionLost).toBe(false);
  });

  it('is kept when loading it answers 5xx or nothing (the shell shows the error page)', async () => {
    for (const status of [500, 503, 0]) {
      const { store } = authStore(throwing(failure(status)));
      await store.dispatch(authApi.endpoints.getUser.initiate());
      expect(store.getState().auth).toMatchObject({ user, signedOut: false });
    }
  });

  it('follows the answers that carry it: GET /user/ and the settings', async () => {
    const fresh = { ...user, show_select_storage: true };
    const { store } = authStore(() => fresh, null);
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(store.getState().auth.user).toEqual(fresh);
    const saved = { ...fresh, show_select_storage: false };
    const settings = authStore(() => saved);
    await settings.store.dispatch(
      profileApi.endpoints.updateSettings.initiate({ body: { show_select_storage: false } }),
    );
    expect(settings.store.getState().auth.user).toEqual(saved);
  });
});

describe('signing in inside the app', () => {
  it('keeps the answer as the signed-in user, so the shell asks nothing more', async () => {
    const { store, asked } = authStore(() => user, null);
    await store.dispatch(
      authApi.endpoints.authenticate.initiate({ body: { email: 'a@example.com', password: 'pw' } }),
    );
    expect(store.getState().auth).toMatchObject({ user, signedOut: false });
    await vi.waitFor(() =>
      expect(authApi.endpoints.getUser.select()(store.getState()).data).toEqual(user),
    );
    expect(asked()).toEqual(['POST /authenticate/']);
  });
});

describe('signing out', () => {
  it('ends the session, then forgets the user and every cached answer', async () => {
    const { store, asked, signOut } = authStore((route) =>
      route === api.accounts.logout ? undefined : user,
    );
    await store.dispatch(authApi.endpoints.getUser.initiate());
    expect(Object.keys(store.getState().api.queries)).not.toHaveLength(0);
    await signOut();
    expect(asked()).toContain('POST /logout/');
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
    expect(store.getState().api.queries).toEqual({});
  });

  it('clears this side even when the session is already gone on the server', async () => {
    const { store, signOut } = authStore(throwing(failure(401)));
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
