import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineRoute, idParam } from '@filerunner/protocol';
import {
  ApiError,
  createApiClient,
  firstErrorMessage,
  isRetryable,
  type ApiClientOptions,
} from './api-client';

/** Calls shaped like the route table's, so the client is tested apart from the real table. */
const any = z.unknown();
const routes = {
  login: defineRoute({
    method: 'POST',
    path: '/authenticate/',
    summary: 'sign in',
    auth: 'public',
    body: z.object({ email: z.string() }),
    status: 200,
    response: any,
  }),
  profile: defineRoute({
    method: 'POST',
    path: '/user/',
    summary: 'profile form',
    auth: 'user',
    form: z.object({ first_name: z.string() }),
    status: 200,
    response: any,
  }),
  user: defineRoute({
    method: 'GET',
    path: '/user/',
    summary: 'me',
    auth: 'user',
    status: 200,
    response: any,
  }),
  received: defineRoute({
    method: 'GET',
    path: '/packages/received/',
    summary: 'inbox',
    auth: 'user',
    query: z.object({ page: z.number(), contract_slug: z.string(), clear: z.boolean().optional() }),
    status: 200,
    response: any,
  }),
  group: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/editgroup/:groupId/',
    summary: 'edit',
    auth: 'user',
    params: z.object({ slug: z.string(), groupId: idParam }),
    status: 200,
    response: any,
    idempotent: true,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/packages/create/',
    summary: 'create',
    auth: 'user',
    body: z.object({ name: z.string() }),
    status: 201,
    response: any,
    idempotent: true,
    idempotencyKey: true,
  }),
  slo: defineRoute({
    method: 'POST',
    path: '/packages/:contract/:package/slo/',
    summary: 'slo',
    auth: 'user',
    params: z.object({ contract: z.string(), package: z.string() }),
    body: z.object({}),
    status: 200,
    response: any,
    idempotent: true,
    awaitsStorage: true,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/logout/',
    summary: 'sign out',
    auth: 'public',
    status: 204,
    response: null,
    idempotent: true,
  }),
};

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function jsonResponse({ status, body, headers = {} }: Reply): Response {
  const hasBody = body !== undefined && status !== 204;
  return new Response(hasBody ? JSON.stringify(body) : null, {
    status,
    headers: hasBody ? { 'Content-Type': 'application/json', ...headers } : headers,
  });
}

/** A fetch that answers with the given replies in order and records what it was asked. */
function scriptedFetch(...replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const reply = replies.shift();
    if (!reply) throw new Error('no scripted reply left');
    return jsonResponse(reply);
  });
  return { fetch: fetchMock as unknown as typeof fetch, calls };
}

function client(overrides: Partial<ApiClientOptions> & Pick<ApiClientOptions, 'fetch'>) {
  const sleeps: number[] = [];
  const api = createApiClient({
    clientVersion: '1.2.3',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { api, sleeps };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createApiClient', () => {
  it('sends the version header, cookies and a JSON body under /api', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: { ok: true } });
    const { api } = client({ fetch });

    await expect(api.call(routes.login, { body: { email: 'a@b.c' } })).resolves.toEqual({
      ok: true,
    });

    const [call] = calls;
    expect(call?.url).toBe('/api/authenticate/');
    expect(call?.init.credentials).toBe('include');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.body).toBe('{"email":"a@b.c"}');
    const headers = call?.init.headers as Record<string, string>;
    expect(headers['x-client-version']).toBe('1.2.3');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('sends FormData as is, leaving the multipart boundary to fetch', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: {} });
    const { api } = client({ fetch });
    const form = new FormData();
    form.set('first_name', 'Ada');

    await api.call(routes.profile, { body: form });

    expect(calls[0]?.init.body).toBe(form);
    expect((calls[0]?.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('adds query parameters, skipping undefined ones', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: [] });
    const { api } = client({ fetch });

    await api.call(routes.received, {
      query: { page: 2, contract_slug: 'demo', clear: undefined },
    });

    expect(calls[0]?.url).toBe('/api/packages/received/?page=2&contract_slug=demo');
  });

  it('retries 5xx and 429 up to 3 times with exponential backoff plus jitter', async () => {
    const { fetch, calls } = scriptedFetch(
      { status: 503 },
      { status: 429, body: { detail: 'slow down' } },
      { status: 500 },
      { status: 200, body: { done: true } },
    );
    const { api, sleeps } = client({ fetch, backoffBaseMs: 100 });

    await expect(api.call(routes.user)).resolves.toEqual({ done: true });

    expect(calls).toHaveLength(4);
    // base * 2^attempt + random (0.5) * base
    expect(sleeps).toEqual([150, 250, 450]);
  });

  it('gives up after 3 retries with a typed error carrying status and body', async () => {
    const { fetch, calls } = scriptedFetch(
      { status: 502 },
      { status: 502 },
      { status: 502 },
      { status: 502, body: { detail: 'bad gateway' } },
    );
    const { api } = client({ fetch });

    const error = await api.call(routes.user).catch((e: unknown) => e);

    expect(calls).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 502, detail: 'bad gateway' });
  });

  it('does not retry other 4xx answers and exposes their field errors', async () => {
    const { fetch, calls } = scriptedFetch({
      status: 400,
      body: { first_name: ['First Name is required'], errors: undefined },
    });
    const { api } = client({ fetch });

    const error = (await api
      .call(routes.login, { body: { email: '' } })
      .catch((e: unknown) => e)) as ApiError;

    expect(calls).toHaveLength(1);
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ first_name: ['First Name is required'] });
  });

  it('reads detail as a list of messages, whether it is one string or several', () => {
    expect(new ApiError('HTTP_ERROR', 400, { detail: ['a: bad', 'b: bad'] }, 'x').details).toEqual([
      'a: bad',
      'b: bad',
    ]);
    expect(new ApiError('HTTP_ERROR', 403, { detail: 'no' }, 'x').details).toEqual(['no']);
    expect(new ApiError('HTTP_ERROR', 500, undefined, 'x').details).toEqual([]);
  });

  it('picks the message to show: detail first, then a field message, else the fallback', () => {
    const error = (status: number, body: unknown) => new ApiError('HTTP_ERROR', status, body, 'x');
    expect(firstErrorMessage(error(400, { detail: ['a: bad'] }), 'fallback')).toBe('a: bad');
    expect(firstErrorMessage(error(400, { admin: ['no'] }), 'fallback')).toBe('no');
    expect(firstErrorMessage(error(400, {}), 'fallback')).toBe('fallback');
    expect(firstErrorMessage(error(500, { detail: 'boom' }), 'fallback')).toBe('fallback');
    expect(firstErrorMessage(new TypeError('x'), 'fallback')).toBe('fallback');
  });

  it('reads field errors nested under errors, as the token checks answer', () => {
    const error = new ApiError('HTTP_ERROR', 400, { errors: { token: ['bad token'] } }, 'x');
    expect(error.fieldErrors).toEqual({ token: ['bad token'] });
  });

  it('retries 400 on the upload bookkeeping calls only', async () => {
    const { fetch, calls } = scriptedFetch({ status: 400 }, { status: 200, body: {} });
    const { api } = client({ fetch });

    await api.call(routes.slo, { params: { contract: 'demo', package: 'abc' }, body: {} });

    expect(calls).toHaveLength(2);
    expect(calls[0]?.url).toBe('/api/packages/demo/abc/slo/');
    expect(isRetryable(400, routes.slo)).toBe(true);
    expect(isRetryable(400, routes.user)).toBe(false);
    expect(isRetryable(404, routes.slo)).toBe(false);
    expect(isRetryable(503, routes.user)).toBe(true);
  });

  it('aborts a call after the timeout with a TIMEOUT error', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted')));
        }),
    );
    const { api } = client({ fetch: fetchMock as unknown as typeof fetch });

    const pending = api.call(routes.user).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);

    expect(await pending).toMatchObject({ code: 'TIMEOUT', status: 0 });
  });

  it('sets no timeout on the upload bookkeeping calls', async () => {
    vi.useFakeTimers();
    let release: (() => void) | undefined;
    const fetchMock = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted')));
          release = () => resolve(jsonResponse({ status: 200, body: { ok: 1 } }));
        }),
    );
    const { api } = client({ fetch: fetchMock as unknown as typeof fetch });

    const pending = api.call(routes.slo, { params: { contract: 'c', package: 'p' }, body: {} });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    release?.();

    await expect(pending).resolves.toEqual({ ok: 1 });
  });

  it("passes the caller's abort through untouched", async () => {
    const fetchMock = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          if (init?.signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const { api } = client({ fetch: fetchMock as unknown as typeof fetch });
    const controller = new AbortController();
    controller.abort();

    await expect(api.call(routes.user, undefined, controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('turns a failed fetch into a NETWORK_ERROR without retrying', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { api } = client({ fetch: fetchMock as unknown as typeof fetch });

    await expect(api.call(routes.user)).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
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
    const { api } = client({
      fetch,
      now: () => 1_000_000,
      onSessionExpires: (at) => expiries.push(at),
    });

    await api.call(routes.user);
    await api.call(routes.user).catch(() => undefined);
    await api.call(routes.user);

    expect(expiries).toEqual([1_000_000 + 2 * 3600_000, Date.parse('2025-01-01T12:00:00Z')]);
  });

  it('returns undefined for 204 answers', async () => {
    const { fetch } = scriptedFetch({ status: 204 });
    const { api } = client({ fetch });

    await expect(api.call(routes.logout)).resolves.toBeUndefined();
  });

  it('fills path parameters, each encoded', async () => {
    const { fetch, calls } = scriptedFetch({ status: 200, body: {} });
    const { api } = client({ fetch });

    await api.call(routes.group, { params: { slug: 'a b/c', groupId: '7' } });

    expect(calls[0]?.url).toBe('/api/contracts/a%20b%2Fc/editgroup/7/');
  });

  it('never repeats a call that is not idempotent, even after a server fault', async () => {
    const { fetch, calls } = scriptedFetch({ status: 503 }, { status: 200, body: {} });
    const { api } = client({ fetch });

    await expect(api.call(routes.login, { body: { email: 'a@b.c' } })).rejects.toMatchObject({
      status: 503,
    });
    expect(calls).toHaveLength(1);
  });

  it('repeats a create with the same idempotency key, so the server makes one package', async () => {
    const { fetch, calls } = scriptedFetch({ status: 502 }, { status: 201, body: { slug: 'p' } });
    const { api } = client({ fetch });

    await expect(api.call(routes.create, { body: { name: 'x' } })).resolves.toEqual({ slug: 'p' });

    const keys = calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives each create its own key', async () => {
    const { fetch, calls } = scriptedFetch({ status: 201, body: {} }, { status: 201, body: {} });
    const { api } = client({ fetch });

    await api.call(routes.create, { body: { name: 'x' } });
    await api.call(routes.create, { body: { name: 'x' } });

    const keys = calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
