import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from './api-error';
import { createRouteClient, sessionExpiryOf, type RouteClientOptions } from './client';
import { idParam } from './fields';
import { NoAnswerError, type Clock, type HttpClient, type HttpRequest } from './http';
import { defineRoute } from './route';

// The route client over a scripted HttpClient: what it sends and how it judges each answer. The
// same rules are checked against the real server through the browser's and Node's clients in
// apps/server/test/route-client.contract.ts.

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
    retryOn400: true,
    noTimeout: true,
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

type Reply =
  { status: number; body?: unknown; headers?: Record<string, string> } | NoAnswerError | 'hang';

/** An HttpClient answering from a script, recording each request. */
function scripted(...replies: Reply[]) {
  const requests: HttpRequest[] = [];
  const http: HttpClient = {
    async request(request) {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no scripted reply left');
      if (reply instanceof NoAnswerError) throw reply;
      if (reply === 'hang') {
        return new Promise((_resolve, reject) => {
          const stop = () => reject(request.signal!.reason);
          if (request.signal?.aborted) stop();
          request.signal?.addEventListener('abort', stop);
        });
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.headers ?? {})) {
        headers[name.toLowerCase()] = value;
      }
      return {
        status: reply.status,
        header: (name) => headers[name.toLowerCase()] ?? null,
        text: async () => (reply.body === undefined ? '' : JSON.stringify(reply.body)),
      };
    },
  };
  return { http, requests };
}

function clientOver(http: HttpClient, options: Partial<RouteClientOptions> = {}) {
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
  const client = createRouteClient({
    http,
    baseUrl: '/api',
    clientVersion: '1.2.3',
    clock,
    random: () => 0.5,
    ...options,
  });
  return { client, sleeps };
}

const failure = (pending: Promise<unknown>) =>
  pending.then(
    () => null,
    (error: unknown) => error,
  );

describe('the route client', () => {
  it('sends the version header and a JSON body under the base', async () => {
    const { http, requests } = scripted({ status: 200, body: { ok: true } });
    const { client } = clientOver(http);

    await expect(client.call(routes.login, { body: { email: 'a@b.c' } })).resolves.toEqual({
      ok: true,
    });

    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/authenticate/',
      body: { json: { email: 'a@b.c' } },
      headers: { 'x-client-version': '1.2.3', accept: 'application/json' },
      timeoutMs: 60_000,
    });
  });

  it('sends a form route as a form, fields then files', async () => {
    const { http, requests } = scripted({ status: 200, body: {} });
    const { client } = clientOver(http);
    const form = { fields: [['first_name', 'Ada'] as [string, string]], files: [] };

    await client.call(routes.profile, { body: form });

    expect(requests[0]!.body).toBe(form);
  });

  it('adds query parameters, skipping undefined ones, and fills path parameters encoded', async () => {
    const { http, requests } = scripted({ status: 200, body: [] }, { status: 200, body: {} });
    const { client } = clientOver(http);

    await client.call(routes.received, {
      query: { page: 2, contract_slug: 'demo', clear: undefined },
    });
    await client.call(routes.group, { params: { slug: 'a b/c', groupId: '7' } });

    expect(requests.map((r) => r.url)).toEqual([
      '/api/packages/received/?page=2&contract_slug=demo',
      '/api/contracts/a%20b%2Fc/editgroup/7/',
    ]);
  });

  it('retries 5xx and 429 up to 3 times with exponential backoff plus jitter', async () => {
    const { http, requests } = scripted(
      { status: 503 },
      { status: 429, body: { detail: 'slow down' } },
      { status: 500 },
      { status: 200, body: { done: true } },
    );
    const { client, sleeps } = clientOver(http);

    await expect(client.call(routes.user)).resolves.toEqual({ done: true });

    expect(requests).toHaveLength(4);
    // 500 ms * 2^retry + random (0.5) * 500 ms
    expect(sleeps).toEqual([750, 1250, 2250]);
  });

  it('gives up after 3 retries with an ApiError carrying status, body and message', async () => {
    const { http, requests } = scripted(
      { status: 502 },
      { status: 502 },
      { status: 502 },
      { status: 502, body: { detail: 'bad gateway' } },
    );
    const { client } = clientOver(http);

    const error = await failure(client.call(routes.user));

    expect(requests).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 502,
      detail: 'bad gateway',
      message: 'bad gateway',
      call: 'GET /user/',
    });
  });

  it('does not retry other 4xx answers and gives their field errors and message', async () => {
    const { http, requests } = scripted({
      status: 400,
      body: { first_name: ['First Name is required'] },
    });
    const { client } = clientOver(http);

    const error = (await failure(client.call(routes.login, { body: { email: '' } }))) as ApiError;

    expect(requests).toHaveLength(1);
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ first_name: ['First Name is required'] });
    expect(error.message).toBe('First Name is required');
  });

  it('names the route, not the filled-in path, where the server gave no words', async () => {
    const { http } = scripted({ status: 404 });
    const { client } = clientOver(http);
    const error = await failure(
      client.call(routes.slo, { params: { contract: 'c', package: 'secret-key' }, body: {} }),
    );
    expect(error).toMatchObject({ message: 'POST /packages/:contract/:package/slo/: 404' });
  });

  it('reads detail as a list of messages, and field errors nested under errors', () => {
    const error = (body: unknown) => new ApiError('HTTP_ERROR', 400, body, 'x');
    expect(error({ detail: ['a: bad', 'b: bad'] }).details).toEqual(['a: bad', 'b: bad']);
    expect(error({ detail: 'no' }).details).toEqual(['no']);
    expect(error(undefined).details).toEqual([]);
    expect(error({ errors: { token: ['bad token'] } }).fieldErrors).toEqual({
      token: ['bad token'],
    });
  });

  it('retries a 400 on the routes that say so, and gives them no timeout', async () => {
    const { http, requests } = scripted({ status: 400 }, { status: 200, body: {} });
    const { client } = clientOver(http);

    await client.call(routes.slo, { params: { contract: 'demo', package: 'abc' }, body: {} });

    expect(requests).toHaveLength(2);
    expect(requests[0]!.url).toBe('/api/packages/demo/abc/slo/');
    expect(requests[0]!.timeoutMs).toBeUndefined();
  });

  it('retries a call that got no answer, then fails with its kind', async () => {
    const timedOut = () => new NoAnswerError('TIMEOUT', 'GET', '/api/user/');
    const { http, requests } = scripted(timedOut(), timedOut(), timedOut(), timedOut());
    const { client } = clientOver(http);

    expect(await failure(client.call(routes.user))).toMatchObject({
      name: 'ApiError',
      code: 'TIMEOUT',
      status: 0,
    });
    expect(requests).toHaveLength(4);

    const refused = scripted(new NoAnswerError('NETWORK_ERROR', 'POST', '/api/authenticate/'));
    const once = clientOver(refused.http).client.call(routes.login, { body: { email: 'a' } });
    expect(await failure(once)).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(refused.requests).toHaveLength(1);
  });

  it("passes the caller's abort through untouched", async () => {
    const { http } = scripted('hang');
    const { client } = clientOver(http);
    const controller = new AbortController();

    const pending = failure(client.call(routes.user, undefined, { signal: controller.signal }));
    controller.abort(new Error('paused'));

    expect(await pending).toMatchObject({ message: 'paused' });
  });

  it('shows every answer to onAnswer, null for none, and reads the session expiry', async () => {
    const { http } = scripted(
      { status: 503 },
      new NoAnswerError('NETWORK_ERROR', 'GET', '/api/user/'),
      {
        status: 200,
        body: {},
        headers: {
          Date: 'Wed, 01 Jan 2025 10:00:00 GMT',
          Expires: 'Wed, 01 Jan 2025 12:00:00 GMT',
        },
      },
    );
    const seen: (number | null)[] = [];
    const expiries: (number | null)[] = [];
    const { client } = clientOver(http, {
      onAnswer: (answer) => {
        seen.push(answer?.status ?? null);
        if (answer) expiries.push(sessionExpiryOf(answer, 1_000_000));
      },
    });

    await client.call(routes.user);

    expect(seen).toEqual([503, null, 200]);
    expect(expiries).toEqual([null, 1_000_000 + 2 * 3600_000]);
  });

  it('returns undefined for 204 answers', async () => {
    const { http } = scripted({ status: 204 });
    await expect(clientOver(http).client.call(routes.logout)).resolves.toBeUndefined();
  });

  it('never repeats a call that is not idempotent, even after a server fault', async () => {
    const { http, requests } = scripted({ status: 503 }, { status: 200, body: {} });
    const { client } = clientOver(http);

    const error = await failure(client.call(routes.login, { body: { email: 'a@b.c' } }));
    expect(error).toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
  });

  it('repeats a create with the same idempotency key, a fresh one per call, or the given one', async () => {
    const { http, requests } = scripted(
      { status: 502 },
      { status: 201, body: { slug: 'p' } },
      { status: 201, body: {} },
      { status: 201, body: {} },
    );
    const { client } = clientOver(http, { random: Math.random });

    await expect(client.call(routes.create, { body: { name: 'x' } })).resolves.toEqual({
      slug: 'p',
    });
    await client.call(routes.create, { body: { name: 'x' } });
    await client.call(routes.create, { body: { name: 'x' } }, { idempotencyKey: 'kept' });

    const keys = requests.map((r) => r.headers?.['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBe('kept');
  });
});
