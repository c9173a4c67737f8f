import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SwiftSession } from './swift-session';

/**
 * A scripted v1 auth endpoint and account, for the cases a healthy Swift never shows on
 * demand: tokens that expire between requests, refused logins. The real Swift leg of the
 * conformance suite covers the happy path against Swift itself.
 */
describe('SwiftSession', () => {
  let server: Server;
  let origin: string;
  let validToken: string;
  let logins: number;
  const seen: { method: string; url: string; token: string | undefined }[] = [];
  /** How many more requests to a path Swift refuses with 503 before it answers again. */
  const busy = new Map<string, number>();

  beforeEach(async () => {
    logins = 0;
    validToken = 'AUTH_tk1';
    seen.length = 0;
    busy.clear();
    server = createServer((req: IncomingMessage, res) => {
      if (req.url === '/auth/v1.0') {
        if (
          req.headers['x-auth-user'] !== 'test:tester' ||
          req.headers['x-auth-key'] !== 'testing'
        ) {
          res.writeHead(401).end();
          return;
        }
        logins++;
        res
          .writeHead(200, { 'x-auth-token': validToken, 'x-storage-url': `${origin}/v1/AUTH_test` })
          .end();
        return;
      }
      const token = req.headers['x-auth-token'] as string | undefined;
      seen.push({ method: req.method ?? '', url: req.url ?? '', token });
      const refusals = busy.get(req.url ?? '') ?? 0;
      if (refusals > 0) {
        busy.set(req.url ?? '', refusals - 1);
        res.writeHead(503).end('Service Unavailable');
        return;
      }
      res.writeHead(token === validToken ? 204 : 401).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('logs in once, then renews an expired token and repeats the request once', async () => {
    const session = new SwiftSession({
      authUrl: `${origin}/auth/v1.0`,
      user: 'test:tester',
      key: 'testing',
    });
    expect((await session.request({ method: 'HEAD', path: '' })).status).toBe(204);
    expect(session.storageUrl).toBe(`${origin}/v1/AUTH_test`);
    validToken = 'AUTH_tk2';
    expect((await session.request({ method: 'POST', path: '/c' })).status).toBe(204);
    expect(logins).toBe(2);
    expect(seen.map((r) => `${r.method} ${r.token}`)).toEqual([
      'HEAD AUTH_tk1',
      'POST AUTH_tk1',
      'POST AUTH_tk2',
    ]);
  });

  it('shares one login between concurrent refusals', async () => {
    const session = new SwiftSession({
      authUrl: `${origin}/auth/v1.0`,
      user: 'test:tester',
      key: 'testing',
    });
    await session.connect();
    validToken = 'AUTH_tk3';
    const statuses = await Promise.all(
      [1, 2, 3].map(() => session.request({ method: 'HEAD', path: '/c' }).then((r) => r.status)),
    );
    expect(statuses).toEqual([204, 204, 204]);
    expect(logins).toBe(2);
  });

  it('uses a given storage URL and token, and answers 401 when it cannot log in again', async () => {
    const session = new SwiftSession({ storageUrl: `${origin}/v1/AUTH_test/`, token: 'AUTH_tk1' });
    expect((await session.request({ method: 'HEAD', path: '' })).status).toBe(204);
    validToken = 'AUTH_tk9';
    expect((await session.request({ method: 'HEAD', path: '' })).status).toBe(401);
    expect(logins).toBe(0);
  });

  it('reports refused credentials with the unauthorized code', async () => {
    const session = new SwiftSession({
      authUrl: `${origin}/auth/v1.0`,
      user: 'test:tester',
      key: 'wrong',
    });
    await expect(session.connect()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('reads again while Swift refuses for a moment, and gives its last answer when it goes on', async () => {
    const session = new SwiftSession(
      { storageUrl: `${origin}/v1/AUTH_test`, token: 'AUTH_tk1' },
      [5, 5, 5],
    );
    busy.set('/v1/AUTH_test/c?prefix=p', 2);
    expect((await session.request({ method: 'GET', path: '/c?prefix=p' })).status).toBe(204);
    busy.set('/v1/AUTH_test/c/o', 9);
    expect((await session.request({ method: 'HEAD', path: '/c/o' })).status).toBe(503);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      ...Array<string>(3).fill('GET /v1/AUTH_test/c?prefix=p'),
      ...Array<string>(4).fill('HEAD /v1/AUTH_test/c/o'),
    ]);
  });

  it('sends a write once, whatever Swift answers', async () => {
    const session = new SwiftSession(
      { storageUrl: `${origin}/v1/AUTH_test`, token: 'AUTH_tk1' },
      [5, 5, 5],
    );
    busy.set('/v1/AUTH_test/c/o', 1);
    expect((await session.request({ method: 'PUT', path: '/c/o', body: 'x' })).status).toBe(503);
    expect(seen).toHaveLength(1);
  });
});
