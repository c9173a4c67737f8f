import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@filerunner/protocol';
import { ApiError, createApiClient, firstErrorMessage } from './api-client';
import { fetchHttpClient } from './fetch-http-client';

// The app's client is the protocol's route client (its rules are tested in packages/protocol and
// against the real server); here, what the page adds: fetch with the session cookie, forms as
// multipart, the session countdown fed from every answer, and the message shown for a failure.

// Three calls of the real table: a JSON body, a form, a read.
const routes = {
  login: api.accounts.authenticate,
  profile: api.accounts.updateProfile,
  user: api.accounts.user,
};

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** A fetch that answers with the given replies in order and records what it was asked. */
function scriptedFetch(...replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const reply = replies.shift();
    if (!reply) throw new Error('no scripted reply left');
    const { status, body, headers = {} } = reply;
    const hasBody = body !== undefined && status !== 204;
    return new Response(hasBody ? JSON.stringify(body) : null, {
      status,
      headers: hasBody ? { 'Content-Type': 'application/json', ...headers } : headers,
    });
  });
  return { fetch: fetchMock as unknown as typeof fetch, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the app’s API client', () => {
  it('sends the version header, cookies and a JSON body under /api', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: { ok: true } });
    const client = createApiClient({ clientVersion: '1.2.3', http: fetchHttpClient(fetch) });

    await expect(
      client.call(routes.login, { body: { email: 'a@b.c', password: 'p' } }),
    ).resolves.toEqual({
      ok: true,
    });

    const [call] = calls;
    expect(call?.url).toBe('/api/authenticate/');
    expect(call?.init).toMatchObject({
      credentials: 'include',
      method: 'POST',
      body: '{"email":"a@b.c","password":"p"}',
    });
    expect(call?.init.headers).toMatchObject({
      'x-client-version': '1.2.3',
      'content-type': 'application/json',
    });
  });

  it('sends a form as multipart FormData, fields then files, the boundary left to fetch', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: {} });
    const client = createApiClient({ clientVersion: 'v', http: fetchHttpClient(fetch) });
    const avatar = new Blob(['png']);

    await client.call(routes.profile, {
      body: {
        fields: [['first_name', 'Ada']],
        files: [{ field: 'avatar', filename: 'a.png', content: avatar }],
      },
    });

    const sent = calls[0]?.init.body as FormData;
    expect([...sent.keys()]).toEqual(['first_name', 'avatar']);
    expect(sent.get('first_name')).toBe('Ada');
    expect((sent.get('avatar') as File).name).toBe('a.png');
    expect((calls[0]?.init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it('tells a failed fetch from a timeout', async () => {
    const refused = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const http = fetchHttpClient(refused as unknown as typeof fetch);
    await expect(http.request({ method: 'GET', url: '/api/user/?x=1' })).rejects.toMatchObject({
      name: 'NoAnswerError',
      code: 'NETWORK_ERROR',
      message: 'GET /api/user/: network error',
    });

    vi.useFakeTimers();
    const hanging = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted')));
        }),
    );
    const slow = fetchHttpClient(hanging as unknown as typeof fetch);
    const pending = slow.request({ method: 'GET', url: '/api/user/', timeoutMs: 60_000 });
    const caught = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await caught).toMatchObject({ code: 'TIMEOUT' });
  });

  it('reports the session expiry of every answer, corrected by the server clock', async () => {
    const expiries: number[] = [];
    const { fetch } = scriptedFetch(
      {
        status: 200,
        body: {},
        headers: {
          Date: 'Wed, 01 Jan 2025 10:00:00 GMT',
          Expires: 'Wed, 01 Jan 2025 12:00:00 GMT',
        },
      },
      {
        status: 401,
        body: { detail: 'no' },
        headers: { Expires: 'Wed, 01 Jan 2025 12:00:00 GMT' },
      },
      { status: 200, body: {} },
    );
    const client = createApiClient({
      clientVersion: 'v',
      http: fetchHttpClient(fetch),
      now: () => 1_000_000,
      onSessionExpires: (at) => expiries.push(at),
    });

    await client.call(routes.user);
    await client.call(routes.user).catch(() => undefined);
    await client.call(routes.user);

    expect(expiries).toEqual([1_000_000 + 2 * 3600_000, Date.parse('2025-01-01T12:00:00Z')]);
  });

  it('picks the message to show: detail first, then a field message, else the fallback', () => {
    const error = (status: number, body: unknown) => new ApiError('HTTP_ERROR', status, body, 'x');
    expect(firstErrorMessage(error(400, { detail: ['a: bad'] }), 'fallback')).toBe('a: bad');
    expect(firstErrorMessage(error(400, { admin: ['no'] }), 'fallback')).toBe('no');
    expect(firstErrorMessage(error(400, {}), 'fallback')).toBe('fallback');
    expect(firstErrorMessage(error(500, { detail: 'boom' }), 'fallback')).toBe('fallback');
    expect(firstErrorMessage(new TypeError('x'), 'fallback')).toBe('fallback');
  });
});
