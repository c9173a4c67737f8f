import { randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { EmbeddedDriver } from './embedded-driver';
import { embeddedStorePlugin } from './embedded-store-plugin';
import { ORIGIN, useStoreApp } from './test-support/store-app';

describe('embeddedStorePlugin', () => {
  let root: string;
  let app: FastifyInstance;
  let driver: EmbeddedDriver;
  let tempUrlKey: string;
  useStoreApp((store) => ({ root, app, driver, tempUrlKey } = store), {
    dirPrefix: 'embedded-store-',
    containerOrigins: ['https://other.example'],
  });

  const expires = () => Math.floor(Date.now() / 1000) + 600;
  const url = (method: 'GET' | 'PUT', key: string, container = 'c') =>
    driver.signTempUrl({ method, container, key, expires: expires() }).url;

  it('stores bodies of any content type raw, while the app still parses its JSON', async () => {
    const notJson = Buffer.from('{"this is": not json');
    const put = await fetch(url('PUT', 'raw.json'), {
      method: 'PUT',
      body: notJson,
      headers: { 'content-type': 'application/json' },
    });
    expect(put.status).toBe(201);
    const get = await fetch(url('GET', 'raw.json'));
    expect(Buffer.from(await get.arrayBuffer()).equals(notJson)).toBe(true);
    // Kept as stored, served as bytes no browser renders (sandboxed-objects.test.ts).
    expect((await driver.head({ container: 'c', key: 'raw.json' }))?.contentType).toBe(
      'application/json',
    );
    expect(get.headers.get('content-type')).toBe('application/octet-stream');
    const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
    expect(echo.json()).toEqual({ a: 1 });
  });

  it('accepts a chunked PUT without Content-Length, and refuses oversized ones up front', async () => {
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(url('PUT', 'chunked'), { method: 'PUT' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(randomBytes(1000));
      req.end(randomBytes(1000));
    });
    expect(chunked).toBe(201);
    expect((await driver.head({ container: 'c', key: 'chunked' }))?.sizeBytes).toBe(2000);

    const huge = await new Promise<number>((resolve, reject) => {
      const req = request(url('PUT', 'huge'), {
        method: 'PUT',
        headers: { 'content-length': String(6 * 1024 ** 3) },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.write(randomBytes(1000));
    });
    expect(huge).toBe(413);
  });

  it('answers bad names and headers with 4xx, never 500', async () => {
    const long = await fetch(url('PUT', 'x'.repeat(1025)), { method: 'PUT', body: 'x' });
    expect(long.status).toBe(400);
    const dlo = await fetch(url('PUT', 'dlo'), {
      method: 'PUT',
      body: 'x',
      headers: { 'x-object-manifest': 'c/seg' },
    });
    expect(dlo.status).toBe(400);
    const meta = await fetch(url('PUT', 'meta'), {
      method: 'PUT',
      body: 'x',
      headers: { 'x-object-meta-big': 'v'.repeat(300) },
    });
    expect(meta.status).toBe(400);
    const badPercent = await fetch(`${driver.accountUrl}/c/%zz`, { method: 'GET' });
    expect(badPercent.status).toBe(400);
    const noContainer = await fetch(url('PUT', 'x', 'missing'), { method: 'PUT', body: 'x' });
    expect(noContainer.status).toBe(404);
    const listing = await fetch(`${driver.accountUrl}/c`);
    expect(listing.status).toBe(401);
  });

  it('shows only public metadata through TempURLs', async () => {
    const put = await fetch(url('PUT', 'meta'), {
      method: 'PUT',
      body: 'x',
      headers: { 'x-object-meta-public-colour': 'blue', 'x-object-meta-owner': 'secret' },
    });
    expect(put.status).toBe(201);
    const head = await fetch(url('GET', 'meta'), { method: 'HEAD' });
    expect(head.headers.get('x-object-meta-public-colour')).toBe('blue');
    expect(head.headers.get('x-object-meta-owner')).toBeNull();
    expect((await driver.head({ container: 'c', key: 'meta' }))?.metadata).toEqual({
      'public-colour': 'blue',
      owner: 'secret',
    });
  });

  it('refuses expiry headers on a TempURL PUT, storing nothing', async () => {
    for (const header of ['x-delete-after', 'x-delete-at']) {
      const value = header === 'x-delete-after' ? '1' : String(expires() + 60);
      const put = await fetch(url('PUT', 'ephemeral'), {
        method: 'PUT',
        body: 'x',
        headers: { [header]: value },
      });
      expect(put.status, header).toBe(400);
      expect(await put.text()).toContain(header);
    }
    expect(await driver.head({ container: 'c', key: 'ephemeral' })).toBeNull();
  });

  it('allows the store-wide origin as well as the container metadata', async () => {
    const preflight = (origin: string) =>
      fetch(url('PUT', 'x'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT' },
      });
    expect((await preflight(ORIGIN)).status).toBe(200);
    expect((await preflight('https://other.example')).status).toBe(200);
    expect((await preflight('https://third.example')).status).toBe(401);
  });

  it('answers 409 when the first segment of a manifest changed since its PUT', async () => {
    await fetch(url('PUT', 'seg'), { method: 'PUT', body: 'segment bytes' });
    await driver.putManifest({ container: 'c', key: 'joined' }, [
      { object: { container: 'c', key: 'seg' } },
      { data: Buffer.from('tail') },
    ]);
    expect(await (await fetch(url('GET', 'joined'))).text()).toBe('segment bytestail');
    expect(await driver.readManifest({ container: 'c', key: 'joined' })).toMatchObject([
      { object: { container: 'c', key: 'seg' }, sizeBytes: 13 },
      { data: Buffer.from('tail') },
    ]);
    await fetch(url('PUT', 'seg'), { method: 'PUT', body: 'other content' });
    expect((await fetch(url('GET', 'joined'))).status).toBe(409);
  });

  it('removes temp files of dead writers on start, and keeps those of live ones', async () => {
    const tempDir = path.join(root, '.tmp');
    await mkdir(tempDir, { recursive: true });
    await writeFile(path.join(tempDir, '999999999.abcd1234.x.tmp'), 'crashed');
    await writeFile(path.join(tempDir, `${process.ppid}.abcd1234.y.tmp`), 'in flight');
    const second = Fastify();
    await second.register(embeddedStorePlugin, { root, account: 'AUTH_filerunner', tempUrlKey });
    await second.ready();
    expect(await readdir(tempDir)).toEqual([`${process.ppid}.abcd1234.y.tmp`]);
    await second.close();
  });
});
