import { expect, it } from 'vitest';
import {
  collect,
  getBytes,
  md5,
  putObject,
  randomBody,
  signedUrl,
  uniqueKey,
  type ConformanceContext,
} from './conformance-harness';

/**
 * Reads on a condition: the server reads a sent package's objects only as they were when it was
 * recorded (If-Match on the recorded etag), so an object replaced since then fails the read
 * instead of serving other bytes. A manifest's etag is the one its HEAD reports (MD5 over the
 * segments' etags), as in Swift's SLO.
 */
export function ifMatchCases(context: () => ConformanceContext): void {
  it('reads an object only while its etag is the one asked for', async () => {
    const ctx = context();
    const location = { container: ctx.container, key: uniqueKey('if-match/plain') };
    const first = randomBody(3000);
    expect((await putObject(ctx, location.key, first)).status).toBe(201);

    const whole = await ctx.driver.read(location, undefined, { ifMatch: md5(first) });
    expect((await collect(whole)).equals(first)).toBe(true);
    const part = await ctx.driver.read(
      location,
      { offset: 100, length: 50 },
      { ifMatch: md5(first) },
    );
    expect((await collect(part)).equals(first.subarray(100, 150))).toBe(true);

    // Replaced behind the reader's back: the old etag no longer opens it, whole or in part.
    const second = randomBody(3000);
    expect((await putObject(ctx, location.key, second)).status).toBe(201);
    await expect(
      ctx.driver.read(location, undefined, { ifMatch: md5(first) }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
    await expect(
      ctx.driver.read(location, { offset: 0, length: 10 }, { ifMatch: md5(first) }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
    // A missing object stays 'not_found', whatever the condition.
    await expect(
      ctx.driver.read({ ...location, key: `${location.key}-absent` }, undefined, {
        ifMatch: md5(first),
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('checks a manifest against its own etag, and fails once it is replaced', async () => {
    const ctx = context();
    const base = uniqueKey('if-match/manifest');
    const segments = [randomBody(2000), randomBody(1500)];
    for (const [index, body] of segments.entries()) {
      expect((await putObject(ctx, `${base}/seg/${index}`, body)).status).toBe(201);
    }
    const location = { container: ctx.container, key: `${base}/joined` };
    const stored = await ctx.driver.putManifest(
      location,
      segments.map((body, index) => ({
        object: { container: ctx.container, key: `${base}/seg/${index}` },
        etag: md5(body),
        sizeBytes: body.length,
      })),
    );
    const info = await ctx.driver.head(location);
    expect(info?.etag).toBe(stored.etag);
    const joined = Buffer.concat(segments);
    const read = await ctx.driver.read(
      location,
      { offset: 1900, length: 200 },
      { ifMatch: stored.etag },
    );
    expect((await collect(read)).equals(joined.subarray(1900, 2100))).toBe(true);

    // A plain PUT over the manifest (all a TempURL can do) leaves another etag.
    expect((await putObject(ctx, location.key, joined)).status).toBe(201);
    await expect(
      ctx.driver.read(location, { offset: 0, length: 10 }, { ifMatch: stored.etag }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
  });

  it('answers a TempURL GET with a stale If-Match with 412', async () => {
    const ctx = context();
    const key = uniqueKey('if-match/tempurl');
    const body = randomBody(500);
    expect((await putObject(ctx, key, body)).status).toBe(201);
    const url = signedUrl(ctx, 'GET', key);
    const current = await getBytes(url, { 'if-match': `"${md5(body)}"` });
    expect(current.response.status).toBe(200);
    expect(current.bytes.equals(body)).toBe(true);
    const stale = await getBytes(url, { 'if-match': `"${md5(Buffer.from('other'))}"` });
    expect(stale.response.status).toBe(412);
  });
}

/**
 * Small reads taken whole (`readBytes`, what a tar of many small files reads each file with):
 * the same bytes and the same refusals as `read`, for an object, a slice of a slab, a slice
 * crossing a manifest's segments, and a range running past the object's end.
 */
export function readBytesCases(context: () => ConformanceContext): void {
  it('reads a small range whole, with the answers of read', async () => {
    const ctx = context();
    const location = { container: ctx.container, key: uniqueKey('read-bytes/slab') };
    const slab = randomBody(70_000);
    expect((await putObject(ctx, location.key, slab)).status).toBe(201);
    const etag = md5(slab);

    const whole = await ctx.driver.readBytes(location, { offset: 0, length: slab.length });
    expect(Buffer.from(whole).equals(slab)).toBe(true);
    // A file packed in the slab, far in and near the end.
    const inside = await ctx.driver.readBytes(
      location,
      { offset: 65_000, length: 4000 },
      { ifMatch: etag },
    );
    expect(Buffer.from(inside).equals(slab.subarray(65_000, 69_000))).toBe(true);
    // Past the end: the bytes there are, no more (the caller finds the short read).
    const tail = await ctx.driver.readBytes(location, { offset: 69_990, length: 100 });
    expect(Buffer.from(tail).equals(slab.subarray(69_990))).toBe(true);
    await expect(
      ctx.driver.readBytes(location, { offset: 70_000, length: 10 }),
    ).rejects.toMatchObject({ code: 'range_not_satisfiable' });
    await expect(
      ctx.driver.readBytes(location, { offset: 0, length: 10 }, { ifMatch: md5(Buffer.from('x')) }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
    await expect(
      ctx.driver.readBytes(
        { ...location, key: `${location.key}-absent` },
        { offset: 0, length: 1 },
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it("reads a small range of a manifest across its segments, checked against the manifest's etag", async () => {
    const ctx = context();
    const base = uniqueKey('read-bytes/manifest');
    const segments = [randomBody(3000), randomBody(2500)];
    for (const [index, body] of segments.entries()) {
      expect((await putObject(ctx, `${base}/seg/${index}`, body)).status).toBe(201);
    }
    const location = { container: ctx.container, key: `${base}/joined` };
    const stored = await ctx.driver.putManifest(
      location,
      segments.map((body, index) => ({
        object: { container: ctx.container, key: `${base}/seg/${index}` },
        etag: md5(body),
        sizeBytes: body.length,
      })),
    );
    const joined = Buffer.concat(segments);
    const across = await ctx.driver.readBytes(
      location,
      { offset: 2900, length: 300 },
      { ifMatch: stored.etag },
    );
    expect(Buffer.from(across).equals(joined.subarray(2900, 3200))).toBe(true);
    await expect(
      ctx.driver.readBytes(location, { offset: 0, length: 10 }, { ifMatch: md5(joined) }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
  });
}
