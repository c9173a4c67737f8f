import { describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@filerunner/protocol';
import { sessions, userTokens } from '../../db/schema';
import {
  BASE_HEADERS,
  createUser,
  linkIn,
  login,
  PASSWORD,
  uniqueEmail,
  useTestServer,
  type TestServer,
} from '../../../test/harness';
import { inviteUser } from './accounts.service';

let server: TestServer;
// Sessions of the default 8 hours, capped at a day from login.
useTestServer((t) => ({ server } = t), { LOGIN_RATE_LIMIT: '3', SESSION_MAX_AGE_SECONDS: '86400' });

const post = (url: string, payload: unknown, headers: Record<string, string> = BASE_HEADERS) =>
  server.app.inject({ method: 'POST', url, headers, payload: payload as object });

/** Sets a new password with a mailed reset link's uid and token, confirmed as `confirm`. */
const resetPassword = (
  uid: string | undefined,
  token: string | undefined,
  password: string,
  confirm = password,
) => post('/api/user/reset_password/', { uid, token, password, password_confirm: confirm });

describe('POST /authenticate/', () => {
  it('logs in with the right password: session cookie, user body and Expires header', async () => {
    const user = await createUser(server, { contract: true, send: true });
    const response = await post('/api/authenticate/', {
      email: user.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: user.email, send: true, receive: true });
    const cookie = response.cookies.find((c) => c.name === 'filerunner_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const expires = Date.parse(response.headers.expires as string);
    expect(expires).toBeGreaterThan(Date.now() + 3600_000);
  });

  it("refuses a wrong password with the spec's message", async () => {
    const user = await createUser(server);
    const response = await post('/api/authenticate/', {
      email: user.email,
      password: 'Wrong-pass1!',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: messages.login.failed });
  });

  it('refuses an unknown address exactly like a wrong password', async () => {
    const response = await post('/api/authenticate/', { email: uniqueEmail(), password: PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: messages.login.failed });
  });

  it('reports missing fields per field', async () => {
    const response = await post('/api/authenticate/', { email: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      email: [messages.password.required],
      password: [messages.password.required],
    });
  });

  it('refuses a browser call without the client version header (CSRF guard)', async () => {
    const user = await createUser(server);
    const response = await post(
      '/api/authenticate/',
      { email: user.email, password: PASSWORD },
      {},
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: messages.auth.clientVersionRequired });
  });

  it('throttles repeated failures per address and account with 429, even with the right password', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i++) {
      expect(
        (await post('/api/authenticate/', { email: user.email, password: 'Nope-nope1!' }))
          .statusCode,
      ).toBe(400);
    }
    const blocked = await post('/api/authenticate/', { email: user.email, password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
  });

  it('throttles repeated failures per address across accounts', async () => {
    const from = { remoteAddress: '10.9.8.7' };
    for (let i = 0; i < 15; i++) {
      const r = await server.app.inject({
        method: 'POST',
        url: '/api/authenticate/',
        headers: BASE_HEADERS,
        payload: { email: uniqueEmail(), password: 'x' },
        ...from,
      });
      expect(r.statusCode).toBe(400);
    }
    const user = await createUser(server);
    const blocked = await server.app.inject({
      method: 'POST',
      url: '/api/authenticate/',
      headers: BASE_HEADERS,
      payload: { email: user.email, password: PASSWORD },
      ...from,
    });
    expect(blocked.statusCode).toBe(429);
  });
});

describe('session', () => {
  it('GET /user/ needs a login', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/user/' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: messages.auth.required });
  });

  it('logout ends the session on the server', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/user/', headers })).statusCode,
    ).toBe(200);
    expect((await post('/api/logout/', undefined, headers)).statusCode).toBe(204);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/user/', headers })).statusCode,
    ).toBe(401);
  });

  it('extend pushes the expiry further out', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const before = Date.parse(
      (await server.app.inject({ method: 'GET', url: '/api/user/', headers })).headers
        .expires as string,
    );
    // Expires has whole seconds: move the clock two seconds on rather than waiting them out.
    vi.setSystemTime(Date.now() + 2000);
    try {
      const extended = await post('/api/session/extend/', undefined, headers);
      expect(extended.statusCode).toBe(204);
      expect(Date.parse(extended.headers.expires as string)).toBeGreaterThan(before);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('session maximum age', () => {
  const HOUR = 3600_000;
  const extendAt = async (at: number, headers: Record<string, string>) => {
    vi.setSystemTime(at);
    return post('/api/session/extend/', undefined, headers);
  };

  it('extends up to a day from login, never past it, then refuses and ends the session', async () => {
    const user = await createUser(server);
    const loginAt = Date.now();
    vi.setSystemTime(loginAt);
    try {
      const headers = await login(server, user.email);
      const expiresOf = (r: { headers: Record<string, unknown> }) =>
        Date.parse(r.headers.expires as string);

      const first = await extendAt(loginAt + 7 * HOUR, headers);
      expect(first.statusCode).toBe(204);
      expect(expiresOf(first)).toBe(Math.floor((loginAt + 15 * HOUR) / 1000) * 1000);
      expect((await extendAt(loginAt + 14 * HOUR, headers)).statusCode).toBe(204);

      // Eight hours on would be past the day: the end stops at the day.
      const capped = await extendAt(loginAt + 21 * HOUR, headers);
      expect(capped.statusCode).toBe(204);
      expect(expiresOf(capped)).toBe(Math.floor((loginAt + 24 * HOUR) / 1000) * 1000);
      const cookie = capped.cookies.find((c) => c.name === 'filerunner_session')!;
      expect(cookie.expires!.getTime()).toBe(Math.floor((loginAt + 24 * HOUR) / 1000) * 1000);

      const refused = await extendAt(loginAt + 24 * HOUR + 1000, headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: messages.auth.required });
      expect(refused.headers.expires).toBeUndefined();
      const later = await server.app.inject({ method: 'GET', url: '/api/user/', headers });
      expect(later.statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a session older than the maximum age, as after that setting was lowered', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    await server.ctx.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 25 * HOUR) })
      .where(eq(sessions.userId, user.id));

    const refused = await post('/api/session/extend/', undefined, headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: messages.auth.required });
    expect(await server.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual(
      [],
    );
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the account exists, and mails only a real one', async () => {
    const user = await createUser(server);
    const unknown = await post('/api/user/forgot_password/', { email: uniqueEmail('ghost') });
    const known = await post('/api/user/forgot_password/', { email: user.email });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = await server.waitForMail((m) =>
      m.to && JSON.stringify(m.to).includes(user.email) ? true : false,
    );
    expect(mail.subject).toMatch(/reset/i);
    expect(JSON.stringify(await server.mails())).not.toContain('ghost');
  });

  it('requires an email', async () => {
    const response = await post('/api/user/forgot_password/', {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('email');
  });

  it('resets with the mailed token once, then refuses it', async () => {
    const user = await createUser(server);
    await post('/api/user/forgot_password/', { email: user.email });
    const mail = await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(user.email) && /reset/i.test(m.subject ?? ''),
    );
    const [uid, token] = new URL(linkIn(mail)).pathname.split('/').slice(2);
    expect(uid).toBe(user.uid);

    expect((await post('/api/user/reset_password_check/', { uid, token })).json()).toEqual({
      success: true,
    });
    const weak = await resetPassword(uid, token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().password[0]).toMatch(/At least 8 characters/);
    const mismatch = await resetPassword(uid, token, 'New-pass7!x', 'Other-pass7!');
    expect(mismatch.json()).toEqual({ password_confirm: [messages.password.mismatch] });

    const ok = await resetPassword(uid, token, 'New-pass7!x');
    expect(ok.statusCode).toBe(200);
    await login(server, user.email, 'New-pass7!x');

    const reused = await resetPassword(uid, token, 'Again-pass7!');
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ token: [messages.reset.invalidToken] });
    const check = await post('/api/user/reset_password_check/', { uid, token });
    expect(check.json()).toEqual({ errors: { token: [messages.reset.invalidToken] } });
    await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(user.email) && /changed/i.test(m.subject ?? ''),
    );
  });

  it('refuses an expired token and a tampered one', async () => {
    const user = await createUser(server);
    await post('/api/user/forgot_password/', { email: user.email });
    const mail = await server.waitForMail((m) => JSON.stringify(m.to).includes(user.email));
    const [uid, token] = new URL(linkIn(mail)).pathname.split('/').slice(2);
    const tampered = await post('/api/user/reset_password_check/', { uid, token: `${token}x` });
    expect(tampered.statusCode).toBe(400);
    await server.ctx.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, user.id));
    const expired = await resetPassword(uid, token, 'New-pass7!x');
    expect(expired.json()).toEqual({ token: [messages.reset.invalidToken] });
  });
});

describe('activation', () => {
  it('activates an invited account from the mailed link, once', async () => {
    const email = uniqueEmail('invitee');
    await inviteUser(server.ctx, {
      email,
      firstName: 'Ivy',
      lastName: 'Invitee',
      contractName: 'Acme',
    });
    const mail = await server.waitForMail((m) => JSON.stringify(m.to).includes(email));
    const [uid, token] = new URL(linkIn(mail)).pathname.split('/').slice(2);

    const check = await post('/api/user/activation_token_check/', { uid, token });
    expect(check.json()).toEqual({
      success: true,
      email,
      mobile: null,
      first_name: 'Ivy',
      last_name: 'Invitee',
    });
    expect((await post('/api/authenticate/', { email, password: PASSWORD })).statusCode).toBe(400);

    const invalid = await post('/api/user/activate/', {
      uid,
      token,
      name: '',
      password: '',
      password_confirm: '',
      mobile: '12',
    });
    expect(invalid.json()).toEqual({
      name: [messages.activation.nameRequired],
      password: [messages.activation.passwordRequired],
      password_confirm: [messages.activation.confirmationRequired],
    });
    const badMobile = await post('/api/user/activate/', {
      uid,
      token,
      name: 'Ivy Invitee',
      password: PASSWORD,
      password_confirm: PASSWORD,
      mobile: '12',
    });
    expect(badMobile.json()).toEqual({ mobile: [messages.profile.invalidMobile] });

    const ok = await post('/api/user/activate/', {
      uid,
      token,
      name: 'Ivy May Invitee',
      password: PASSWORD,
      password_confirm: PASSWORD,
      mobile: '447911123456',
    });
    expect(ok.statusCode).toBe(200);
    const headers = await login(server, email);
    const me = (await server.app.inject({ method: 'GET', url: '/api/user/', headers })).json();
    expect(me).toMatchObject({
      first_name: 'Ivy',
      last_name: 'May Invitee',
      mobile: '+447911123456',
    });

    const again = await post('/api/user/activation_token_check/', { uid, token });
    expect(again.json()).toEqual({ errors: { token: [messages.activation.invalidToken] } });
  });
});
