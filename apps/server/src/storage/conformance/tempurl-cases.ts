import { expect, it } from 'vitest';
import { sign, tempUrlMessage } from '../signing';
import {
  getBytes,
  inSeconds,
  md5,
  putObject,
  randomBody,
  signedUrl,
  uniqueKey,
  type ConformanceContext,
} from './conformance-harness';

/** TempURL PUT / GET / HEAD / Range / DELETE, and the signatures storage must refuse. */
export function tempUrlCases(context: () => ConformanceContext): void {
  it('stores a TempURL PUT and serves it by GET, HEAD and Range', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/object');
    const body = randomBody(100_000);
    const put = await putObject(ctx, key, body, { 'content-type': 'application/x-test' });
    expect(put.status).toBe(201);
    expect(put.headers.get('etag')?.replace(/"/g, '')).toBe(md5(body));

    const get = await getBytes(signedUrl(ctx, 'GET', key));
    expect(get.response.status).toBe(200);
    expect(get.bytes.equals(body)).toBe(true);
    expect(get.response.headers.get('etag')?.replace(/"/g, '')).toBe(md5(body));
    // The type is kept (Swift serves it; the embedded store serves every object as octet-stream).
    expect((await ctx.driver.head({ container: ctx.container, key }))?.contentType).toBe(
      'application/x-test',
    );
    expect(get.response.headers.get('content-disposition')).toContain('attachment');

    const head = await fetch(signedUrl(ctx, 'GET', key), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(body.length));

    const part = await getBytes(signedUrl(ctx, 'GET', key), { range: 'bytes=1000-1999' });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get('content-range')).toBe(`bytes 1000-1999/${body.length}`);
    expect(part.bytes.equals(body.subarray(1000, 2000))).toBe(true);

    const tail = await getBytes(signedUrl(ctx, 'GET', key), { range: 'bytes=-10' });
    expect(tail.response.status).toBe(206);
    expect(tail.bytes.equals(body.subarray(body.length - 10))).toBe(true);

    const open = await getBytes(signedUrl(ctx, 'GET', key), { range: `bytes=${body.length - 5}-` });
    expect(open.response.status).toBe(206);
    expect(open.bytes.equals(body.subarray(body.length - 5))).toBe(true);

    const beyond = await getBytes(signedUrl(ctx, 'GET', key), { range: `bytes=${body.length}-` });
    expect(beyond.response.status).toBe(416);
  });

  it('accepts sha1, sha256 and sha512 (hex and base64) signatures', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/digests');
    const body = randomBody(1000);
    expect((await putObject(ctx, key, body)).status).toBe(201);
    const expires = inSeconds(600);
    const path = new URL(signedUrl(ctx, 'GET', key)).pathname;
    const signedPath = decodeURIComponent(path);
    const origin = new URL(ctx.driver.accountUrl).origin;
    const hex512 = sign(
      ctx.target.tempUrlKey,
      tempUrlMessage('GET', expires, signedPath),
      'sha512',
    ).slice('sha512:'.length);
    const signatures = [
      sign(ctx.target.tempUrlKey, tempUrlMessage('GET', expires, signedPath), 'sha1'),
      sign(ctx.target.tempUrlKey, tempUrlMessage('GET', expires, signedPath), 'sha256'),
      sign(ctx.target.tempUrlKey, tempUrlMessage('GET', expires, signedPath), 'sha512'),
      `sha256:${Buffer.from(
        sign(ctx.target.tempUrlKey, tempUrlMessage('GET', expires, signedPath), 'sha256'),
        'hex',
      ).toString('base64')}`,
      Buffer.from(hex512, 'base64url').toString('hex'),
    ];
    for (const signature of signatures) {
      const url = `${origin}${path}?temp_url_sig=${encodeURIComponent(signature)}&temp_url_expires=${expires}`;
      const { response, bytes } = await getBytes(url);
      expect(response.status, signature).toBe(200);
      expect(bytes.equals(body)).toBe(true);
    }
  });

  it('refuses expired, tampered, wrong-method and wrong-path signatures with 401', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/refused');
    const other = uniqueKey('tempurl/other');
    const body = randomBody(2000);
    expect((await putObject(ctx, key, body)).status).toBe(201);
    expect((await putObject(ctx, other, body)).status).toBe(201);

    const expired = ctx.driver.signTempUrl({
      method: 'GET',
      container: ctx.container,
      key,
      expires: inSeconds(-5),
    }).url;
    expect((await getBytes(expired)).response.status).toBe(401);

    const good = new URL(signedUrl(ctx, 'GET', key));
    const signature = good.searchParams.get('temp_url_sig') ?? '';
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    const tampered = new URL(good);
    tampered.searchParams.set('temp_url_sig', flipped);
    expect((await getBytes(tampered.toString())).response.status).toBe(401);

    const laterExpiry = new URL(good);
    laterExpiry.searchParams.set('temp_url_expires', String(inSeconds(7200)));
    expect((await getBytes(laterExpiry.toString())).response.status).toBe(401);

    const putGrant = signedUrl(ctx, 'PUT', key);
    expect((await getBytes(putGrant)).response.status).toBe(401);
    const getGrant = signedUrl(ctx, 'GET', key);
    const wrongMethod = await fetch(getGrant, { method: 'PUT', body: Buffer.from('x') });
    expect(wrongMethod.status).toBe(401);

    const wrongPath = new URL(signedUrl(ctx, 'GET', other));
    const grantForKey = new URL(signedUrl(ctx, 'GET', key));
    wrongPath.search = grantForKey.search;
    expect((await getBytes(wrongPath.toString())).response.status).toBe(401);

    const unsigned = new URL(good);
    unsigned.search = '';
    expect((await getBytes(unsigned.toString())).response.status).toBe(401);
  });

  it('refuses a PUT whose ETag header does not match the body (422) and keeps nothing', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/etag');
    const body = randomBody(5000);
    const refused = await putObject(ctx, key, body, { etag: md5(Buffer.from('something else')) });
    expect(refused.status).toBe(422);
    expect((await getBytes(signedUrl(ctx, 'GET', key))).response.status).toBe(404);
    const accepted = await putObject(ctx, key, body, { etag: md5(body) });
    expect(accepted.status).toBe(201);
  });

  it('serves every object under a prefix with one prefix-scoped signature', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('tempurl/prefix')}/`;
    const body = randomBody(300);
    expect((await putObject(ctx, `${prefix}one`, body)).status).toBe(201);
    expect((await putObject(ctx, `${prefix}deeper/two`, body)).status).toBe(201);
    expect((await putObject(ctx, `${prefix.slice(0, -1)}-outside`, body)).status).toBe(201);
    const grant = ctx.driver.signTempUrl({
      method: 'GET',
      container: ctx.container,
      key: prefix,
      prefixScope: true,
      expires: inSeconds(600),
    });
    const base = grant.url.slice(0, grant.url.indexOf('?'));
    for (const name of ['one', 'deeper/two']) {
      const { response, bytes } = await getBytes(`${base}${name}?${grant.query}`);
      expect(response.status).toBe(200);
      expect(bytes.equals(body)).toBe(true);
    }
    const outside = `${base.slice(0, -1)}-outside?${grant.query}`;
    expect((await getBytes(outside)).response.status).toBe(401);
  });

  // Real Swift honours the query's `inline` and the stored Content-Type; the embedded store, on
  // the app's origin, does neither (sandboxed-objects.test.ts). Both name the attachment.
  it('names downloads with filename, as attachments', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/disposition');
    expect((await putObject(ctx, key, randomBody(10))).status).toBe(201);
    const named = ctx.driver.signTempUrl({
      method: 'GET',
      container: ctx.container,
      key,
      expires: inSeconds(600),
      filename: 'report final.pdf',
    });
    for (const method of ['HEAD', 'GET']) {
      const response = await fetch(named.url, { method });
      expect(response.headers.get('content-disposition')).toContain(
        'attachment; filename="report final.pdf"',
      );
      await response.arrayBuffer();
    }
  });

  it('ignores multipart-manifest=put on a TempURL (stores the JSON as a plain object, like Swift)', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/not-a-manifest');
    const json = Buffer.from(
      JSON.stringify([{ path: `/${ctx.container}/nothing`, etag: null, size_bytes: null }]),
    );
    const url = `${signedUrl(ctx, 'PUT', key)}&multipart-manifest=put`;
    const response = await fetch(url, { method: 'PUT', body: json });
    expect(response.status).toBe(201);
    const info = await ctx.driver.head({ container: ctx.container, key });
    expect(info?.isManifest).toBe(false);
    expect(info?.sizeBytes).toBe(json.length);
  });

  it('deletes by TempURL DELETE and then answers 404', async () => {
    const ctx = context();
    const key = uniqueKey('tempurl/delete');
    expect((await putObject(ctx, key, randomBody(10))).status).toBe(201);
    const deleted = await fetch(signedUrl(ctx, 'DELETE', key), { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await getBytes(signedUrl(ctx, 'GET', key))).response.status).toBe(404);
  });
}
