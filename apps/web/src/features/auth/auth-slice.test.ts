import { describe, expect, it } from 'vitest';
import type { User } from '@filerunner/protocol';
import { resetClientState } from '../../app/reset';
import {
  authReducer,
  initialAuthState,
  loadUser,
  login,
  sessionExpiresReceived,
} from './auth-slice';

const user = { id: 1, email: 'a@example.com' } as User;
const signedIn = { ...initialAuthState, user, userLoad: 'fulfilled' as const };

const loadFailed = (status: number) =>
  loadUser.rejected(null, 'req', undefined, { status, message: 'x' });

describe('auth slice', () => {
  it('forgets the user when loading it answers 4xx, so the login redirect happens', () => {
    const state = authReducer(signedIn, loadFailed(401));
    expect(state.user).toBeNull();
    expect(state.userLoadFailed).toBe(false);
  });

  it('keeps the user and flags the error page when loading it answers 5xx or nothing', () => {
    for (const status of [500, 503, 0]) {
      const state = authReducer(signedIn, loadFailed(status));
      expect(state.user).toBe(user);
      expect(state.userLoadFailed).toBe(true);
    }
  });

  it('tracks the login as Loading, then Failed with the message', () => {
    const loading = authReducer(
      initialAuthState,
      login.pending('req', { email: '', password: '' }),
    );
    expect(loading.status).toBe('Loading');
    const failed = authReducer(
      loading,
      login.rejected(null, 'req', { email: '', password: '' }, { status: 400, message: 'no' }),
    );
    expect(failed).toMatchObject({ status: 'Failed', loginError: 'no', user: null });
  });

  it('keeps the session expiry and clears everything on reset', () => {
    const withExpiry = authReducer(signedIn, sessionExpiresReceived(123));
    expect(withExpiry.sessionExpires).toBe(123);
    const reset = authReducer(withExpiry, resetClientState());
    expect(reset).toMatchObject({ user: null, sessionExpires: null, userLoad: 'fulfilled' });
  });
});
