import {
  createServer,
  request as forward,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, expect, it } from 'vitest';
import { sendMessages } from '@filerunner/protocol';
import type { Outcome, RouteName } from './route-calls';

// One suite for the route client, run against the real server through each platform's
// HttpClient: Node's (fetch and node:http) here in vitest, the browser's (XHR, and the web app's
// fetch) in Chromium by e2e/route-client.e2e.test.ts, as tus-js-client runs one suite in both.
// Faults come from a proxy in front of the server, so what the client judges is real HTTP.

/** What a suite runs against: a signed-in route client over one platform's HttpClient. */
export interface ContractSubject {
  proxy: FaultProxy;
  /**
   * Calls the route as the demo sender. `timeoutMs` replaces the API's 60 s, so a timeout can be
   * shown in a test's time; backoff jitter is off, so the retries take 0.5 + 1 + 2 s.
   */
  call(name: RouteName, args?: unknown, options?: { timeoutMs?: number }): Promise<Outcome>;
}

/** What the proxy does to the next request for a path instead of passing it on. */
export type Fault =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number }
  | 'drop';

export interface FaultProxy {
  url: string;
  /** The next requests of `method path` (the path below the origin, without query) meet these, in order. */
  inject(method: string, path: string, faults: Fault[]): void;
  /** How many requests of `method path` arrived since the last `reset`. */
  seen(method: string, path: string): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 in front of `target`: each request passes on unchanged (page, API and
 * storage alike, so a page opened through it keeps one origin), but for the faults injected.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const faults = new Map<string, Fault[]>();
  const counts = new Map<string, number>();
  const key = (method: string, path: string) => `${method} ${path}`;

  const pass = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const onward = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    onward.on('error', () => outgoing.destroy());
    incoming.pipe(onward);
  };

  const server: Server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', 'http://proxy').pathname;
    const k = key(incoming.method ?? 'GET', path);
    counts.set(k, (counts.get(k) ?? 0) + 1);
    const fault = faults.get(k)?.shift();
    if (!fault) return pass(incoming, outgoing);
    if (fault === 'drop') {
      incoming.socket.destroy();
      return;
    }
    if ('delayMs' in fault) {
      const timer = setTimeout(() => pass(incoming, outgoing), fault.delayMs);
      outgoing.on('close', () => clearTimeout(timer));
      return;
    }
    incoming.resume();
    const body = fault.body === undefined ? '' : JSON.stringify(fault.body);
    outgoing.writeHead(fault.status, {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...fault.headers,
    });
    outgoing.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    inject: (method, path, list) => faults.set(key(method, path), [...list]),
    seen: (method, path) => counts.get(key(method, path)) ?? 0,
    reset() {
      faults.clear();
      counts.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers the suite's tests; `subject` gives the platform's signed-in caller once it is up. */
export function routeClientContract(subject: () => ContractSubject) {
  const userPath = '/api/user/';
  // A report of a package nobody has: the server answers 404 once it gets it.
  const reportPath = '/api/packages/no-such-contract/no-such-package/updatefiles/';
  const report = {
    params: { contract: 'no-such-contract', package: 'no-such-package' },
    body: { files: [{ object_path: 'prefix/a.txt', size_bytes: 1, user_path: 'a.txt' }] },
  };

  beforeEach(() => subject().proxy.reset());

  it('retries a read on 503 and 429, and answers what the server then says', async () => {
    const { proxy, call } = subject();
    proxy.inject('GET', userPath, [
      { status: 503 },
      { status: 429, body: { detail: 'Slow down' } },
    ]);
    const outcome = await call('accounts.user');
    expect(outcome).toMatchObject({ ok: true, value: { email: expect.any(String) } });
    expect(proxy.seen('GET', userPath)).toBe(3);
  });

  it('gives up after 3 retries with the last status and the server’s message', async () => {
    const { proxy, call } = subject();
    const busy = { status: 503, body: { detail: 'Down for maintenance' } };
    proxy.inject('GET', userPath, [busy, busy, busy, busy]);
    expect(await call('accounts.user')).toMatchObject({
      ok: false,
      name: 'ApiError',
      code: 'HTTP_ERROR',
      status: 503,
      message: 'Down for maintenance',
    });
    expect(proxy.seen('GET', userPath)).toBe(4);
  });

  it('retries a 400 only on the routes that say so', async () => {
    const { proxy, call } = subject();
    proxy.inject('GET', userPath, [{ status: 400, body: { detail: 'Bad request' } }]);
    expect(await call('accounts.user')).toMatchObject({ ok: false, status: 400 });
    expect(proxy.seen('GET', userPath)).toBe(1);

    // The report is retried after the 400; the server then answers for the package it does not
    // know, and that 404 is final.
    proxy.inject('POST', reportPath, [{ status: 400 }]);
    expect(await call('packages.updateFiles', report)).toMatchObject({ ok: false, status: 404 });
    expect(proxy.seen('POST', reportPath)).toBe(2);
  });

  it('never repeats a call that may not be repeated, nor one refused for good', async () => {
    const { proxy, call } = subject();
    const path = '/api/user/update_password/';
    proxy.inject('POST', path, [{ status: 503 }]);
    // Were it repeated, the server would refuse the wrong current password: nothing changes.
    const body = { password_current: 'x', password_new: 'y', password_new_confirm: 'y' };
    expect(await call('accounts.updatePassword', { body })).toMatchObject({ status: 503 });
    expect(proxy.seen('POST', path)).toBe(1);

    const groups = '/api/contracts/no-such-contract/groups/';
    expect(await call('groups.list', { params: { slug: 'no-such-contract' } })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(proxy.seen('GET', groups)).toBe(1);
  });

  it('surfaces the server’s field errors, the first as its message', async () => {
    const { call } = subject();
    const outcome = await call('packages.create', { body: { contract: 'no-such-contract' } });
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    const failed = outcome as Extract<Outcome, { ok: false }>;
    expect(failed.fieldErrors?.name).toEqual([sendMessages.nameRequired]);
    expect(Object.values(failed.fieldErrors ?? {}).flat()).toContain(failed.message);
  });

  it('times out a call that takes too long, retries it, then fails with TIMEOUT', async () => {
    const { proxy, call } = subject();
    const slow = { delayMs: 1500 };
    proxy.inject('GET', userPath, [slow, slow, slow, slow]);
    const started = Date.now();
    expect(await call('accounts.user', undefined, { timeoutMs: 300 })).toMatchObject({
      ok: false,
      code: 'TIMEOUT',
      status: 0,
    });
    expect(proxy.seen('GET', userPath)).toBe(4);
    // Four attempts of 0.3 s and the backoff between them, not four times the delay.
    expect(Date.now() - started).toBeLessThan(5500);
  });

  it('waits as long as a report takes: those routes have no timeout', async () => {
    const { proxy, call } = subject();
    proxy.inject('POST', reportPath, [{ delayMs: 1200 }]);
    expect(await call('packages.updateFiles', report, { timeoutMs: 300 })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(proxy.seen('POST', reportPath)).toBe(1);
  });

  it('retries a dropped connection, and tells a lost server from a refusal', async () => {
    const { proxy, call } = subject();
    proxy.inject('GET', userPath, ['drop']);
    expect(await call('accounts.user')).toMatchObject({ ok: true });
    // A browser itself sends a request again once when a connection it reused drops, so each of
    // the client's four attempts may take one drop or two; more than enough are set up.
    proxy.inject('GET', userPath, Array<Fault>(12).fill('drop'));
    expect(await call('accounts.user')).toMatchObject({
      ok: false,
      code: 'NETWORK_ERROR',
      status: 0,
    });
    // The one attempt above, then at least the client's four.
    expect(proxy.seen('GET', userPath)).toBeGreaterThanOrEqual(5);
  });
}
