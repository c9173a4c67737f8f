import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  const dist = await mkdtemp(path.join(tmpdir(), 'fr-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>FileRunner</title>');
  await writeFile(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
  server = await startTestServer({ WEB_DIST: dist });
});
afterAll(() => server.close());

describe('the web app and health', () => {
  it('serves the SPA with history fallback and its assets', async () => {
    for (const url of ['/', '/inbox', '/activate/abc/def', '/branding/sent/xyz']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>FileRunner</title>');
    }
    const asset = await server.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
  });

  it('sends security headers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/login' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers /healthcheck when the database answers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthcheck' });
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('the embedded object store inside the app', () => {
  it('takes a signed PUT at /v1/ and serves it back by a signed ranged GET', async () => {
    const { storage } = server.ctx;
    expect(storage.kind).toBe('embedded');
    await storage.ensureContainer('packages');
    const expires = Math.floor(Date.now() / 1000) + 600;
    const put = storage.signTempUrl({
      method: 'PUT',
      container: 'packages',
      key: 'a/b.txt',
      expires,
    });
    const path = (url: string) => new URL(url).pathname + new URL(url).search;
    const stored = await server.app.inject({
      method: 'PUT',
      url: path(put.url),
      payload: 'hello storage',
    });
    expect(stored.statusCode).toBe(201);
    const get = storage.signTempUrl({
      method: 'GET',
      container: 'packages',
      key: 'a/b.txt',
      expires,
    });
    const ranged = await server.app.inject({
      method: 'GET',
      url: path(get.url),
      headers: { range: 'bytes=6-12' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.body).toBe('storage');
    const unsigned = await server.app.inject({
      method: 'GET',
      url: '/v1/AUTH_filerunner/packages/a/b.txt',
    });
    expect(unsigned.statusCode).toBe(401);
  });
});
