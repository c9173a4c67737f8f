import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFixture, createUser, startTestServer, type TestServer } from '../test/harness';
import { addMember } from './modules/contracts/contracts.service';
import { addRecipient, createPackage, putObject } from './modules/downloads/download-fixtures';
import { pickEncoding } from './http/compression';
import { DAY, IMMUTABLE, REVALIDATE } from './http/web-app';

// How the server delivers bytes: the built web app precompressed and cached by kind of file,
// API answers compressed, and the transfer streams (tars, objects) sent exactly as stored.

const SCRIPT = `export const hello = ${JSON.stringify('hello '.repeat(2000))};\n`;
const page = (title: string) =>
  `<!doctype html><html lang="en"><title>${title}</title>${' '.repeat(2000)}</html>`;
const HTML = page('FileRunner');
const LOGIN_HTML = page('FileRunner login');
const EXTERNAL_HTML = page('FileRunner package');

let server: TestServer;
let fx: Awaited<ReturnType<typeof contractFixture>>;
beforeAll(async () => {
  const dist = await mkdtemp(path.join(tmpdir(), 'fr-dist-'));
  await mkdir(path.join(dist, 'assets'));
  const write = async (name: string, text: string) => {
    await writeFile(path.join(dist, name), text);
    await writeFile(path.join(dist, `${name}.br`), brotliCompressSync(text));
    await writeFile(path.join(dist, `${name}.gz`), gzipSync(text));
  };
  await write('index.html', HTML);
  await write('login.html', LOGIN_HTML);
  await write('external.html', EXTERNAL_HTML);
  await write('assets/index-Ab12Cd34.js', SCRIPT);
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ WEB_DIST: dist });
  fx = await contractFixture(server);
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url, headers });

describe('the built web app', () => {
  it('sends the brotli or gzip copy a browser accepts, and the plain file otherwise', async () => {
    const url = '/assets/index-Ab12Cd34.js';
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('lets browsers keep hashed assets for a year and revalidate everything else', async () => {
    const asset = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    expect(IMMUTABLE).toBe('public, max-age=31536000, immutable');

    for (const url of ['/index.html', '/login', '/inbox/external/abc']) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(REVALIDATE);
    }
    const favicon = await get('/favicon.svg');
    expect(favicon.headers['cache-control']).toBe(DAY);
    const fallback = await get('/resetpassword/1/token', { 'accept-encoding': 'br' });
    expect(fallback.headers['content-encoding']).toBe('br');
    expect(fallback.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(fallback.rawPayload).toString()).toBe(HTML);
  });

  it('sends the login and external package links their own pages, without the app', async () => {
    const expected: [string, string][] = [
      ['/login', LOGIN_HTML],
      ['/login?next=%2Fsent', LOGIN_HTML],
      ['/login/', HTML],
      ['/inbox/external/abc?key=k', EXTERNAL_HTML],
      ['/inbox/abc', HTML],
    ];
    for (const [url, html] of expected) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(REVALIDATE);
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(html);
    }
    const direct = await get('/login.html');
    expect(direct.headers['cache-control']).toBe(REVALIDATE);
  });

  it('answers a second visit with 304 for the page, by its validator', async () => {
    const first = await get('/login', { 'accept-encoding': 'br' });
    const again = await get('/login', {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404, not the page, for a hashed asset of an older build', async () => {
    const response = await get('/assets/index-Old00000.js');
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).toBe(REVALIDATE);
  });
});

describe('API answers', () => {
  it('compresses JSON above a small size by Accept-Encoding', async () => {
    // The contract's users as its admin sees them: a listing that grows with the contract.
    for (let i = 0; i < 6; i++) {
      const member = await createUser(server);
      await addMember(server.ctx, fx.contract.id, member.id, { send: true });
    }
    const url = `/api/contracts/${fx.contract.slug}/permissions/`;
    const headers = fx.admin.headers;
    const plain = await get(url, headers);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get(url, { ...headers, 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await get(url, { ...headers, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small answers alone', async () => {
    const response = await get('/api/user/', { 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('reads q-values, and refuses nothing it was not offered', () => {
    expect(pickEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('transfer streams', () => {
  // Very compressible bytes: only a deliberate rule keeps them from being encoded.
  const text = Buffer.from('All work and no play makes Jack a dull boy.\n'.repeat(2000));

  it('sends a ranged object GET of the embedded store byte-exact and unencoded', async () => {
    await server.ctx.storage.ensureContainer('delivery');
    await putObject(server, 'delivery', 'notes.txt', text);
    const { url } = server.ctx.storage.signTempUrl({
      method: 'GET',
      container: 'delivery',
      key: 'notes.txt',
      expires: Math.floor(Date.now() / 1000) + 600,
    });
    const { pathname, search } = new URL(url);
    const ranged = await get(pathname + search, {
      'accept-encoding': 'gzip, br',
      range: 'bytes=1000-50999',
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.headers['content-range']).toBe(`bytes 1000-50999/${text.length}`);
    expect(ranged.rawPayload.equals(text.subarray(1000, 51000))).toBe(true);
  });

  it('sends a package tar, whole and ranged, byte-exact and unencoded', async () => {
    const sample = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: [{ path: 'notes.txt', bytes: text }],
    });
    await addRecipient(server, sample.pkg.id, fx.receiver.user);
    const { headers } = fx.receiver;
    const grant = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${sample.pkg.slug}/download/`,
      headers,
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const tarPath = new URL(grant.json<{ download_url: string }>().download_url).pathname;

    const plain = await get(tarPath);
    expect(plain.headers['content-type']).toBe('application/x-tar');
    const whole = await get(tarPath, { 'accept-encoding': 'gzip, deflate, br' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(Number(whole.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(whole.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect(whole.rawPayload.includes(text)).toBe(true);

    const ranged = await get(tarPath, { 'accept-encoding': 'gzip, br', range: 'bytes=600-40599' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.rawPayload.equals(plain.rawPayload.subarray(600, 40600))).toBe(true);
  });
});
