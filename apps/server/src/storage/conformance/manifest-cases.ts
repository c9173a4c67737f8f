import fc from 'fast-check';
import { expect, it } from 'vitest';
import { StorageError, type ManifestSegment } from '../storage-driver';
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

interface BuiltObject {
  readonly key: string;
  readonly bytes: Buffer;
  readonly segmentKeys: readonly string[];
}

/**
 * A manifest shaped like a package's virtual tar: inline header, object segments (one of
 * them only a range), padding and end blocks. Kept to few object segments because a stock
 * Swift rate-limits GETs of small segments after the tenth.
 */
async function buildTarLikeManifest(ctx: ConformanceContext): Promise<BuiltObject> {
  const base = uniqueKey('manifest/tar');
  const header = randomBody(512);
  const first = randomBody(70_001);
  const second = randomBody(40_000);
  const third = randomBody(3);
  const padding = Buffer.alloc(509);
  const end = Buffer.alloc(1024);
  const segmentKeys = [`${base}/seg/0`, `${base}/seg/1`, `${base}/seg/2`];
  for (const [index, body] of [first, second, third].entries()) {
    expect((await putObject(ctx, segmentKeys[index]!, body)).status).toBe(201);
  }
  const at = (index: number) => ({ container: ctx.container, key: segmentKeys[index]! });
  const segments: ManifestSegment[] = [
    { data: header },
    { object: at(0), etag: md5(first), sizeBytes: first.length },
    { object: at(1), range: { offset: 1000, length: 30_000 } },
    { data: padding },
    { object: at(2), etag: null, sizeBytes: null },
    { data: end },
  ];
  const key = `${base}/package.tar`;
  const stored = await ctx.driver.putManifest({ container: ctx.container, key }, segments, {
    contentType: 'application/x-tar',
  });
  const bytes = Buffer.concat([header, first, second.subarray(1000, 31_000), padding, third, end]);
  expect(stored.sizeBytes).toBe(bytes.length);
  return { key, bytes, segmentKeys };
}

/** SLO manifests: joined reads, ranges across segments, validation, deletion with segments. */
export function manifestCases(context: () => ConformanceContext): void {
  it('joins object and data segments for GET, HEAD and driver reads', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const url = signedUrl(ctx, 'GET', manifest.key);
    const whole = await getBytes(url);
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get('x-static-large-object')?.toLowerCase()).toBe('true');
    expect(whole.bytes.equals(manifest.bytes)).toBe(true);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(manifest.bytes.length));

    const info = await ctx.driver.head({ container: ctx.container, key: manifest.key });
    expect(info).toMatchObject({ isManifest: true, sizeBytes: manifest.bytes.length });

    const read = await ctx.driver.read({ container: ctx.container, key: manifest.key });
    expect((await collect(read)).equals(manifest.bytes)).toBe(true);
  });

  it('returns the stored segments of a manifest (multipart-manifest=get), null otherwise', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const segments = await ctx.driver.readManifest({ container: ctx.container, key: manifest.key });
    const at = (index: number) => ({ container: ctx.container, key: manifest.segmentKeys[index]! });
    const expectedSizes = [70_001, 40_000, 3];
    const objectSegments = (segments ?? []).filter((s) => 'object' in s);
    expect(objectSegments).toEqual(
      expectedSizes.map((sizeBytes, index) => ({
        object: at(index),
        etag: expect.stringMatching(/^[0-9a-f]{32}$/),
        sizeBytes,
        ...(index === 1 ? { range: { offset: 1000, length: 30_000 } } : {}),
      })),
    );
    const data = (segments ?? []).filter((s) => 'data' in s).map((s) => Buffer.from(s.data));
    expect(data.map((d) => d.length)).toEqual([512, 509, 1024]);
    expect(await ctx.driver.readManifest(at(0))).toBeNull();
    expect(await ctx.driver.readManifest({ container: ctx.container, key: 'absent' })).toBeNull();
  });

  it('serves any range of a manifest as the same slice of the joined bytes', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const url = signedUrl(ctx, 'GET', manifest.key);
    const total = manifest.bytes.length;
    const boundaries = [512, 512 + 70_001, 512 + 70_001 + 30_000, total - 1027, total - 1024];
    const rangeArbitrary = fc.oneof(
      fc.tuple(fc.nat(total - 1), fc.integer({ min: 1, max: total })),
      // Ranges that start near a segment boundary cross it most of the time.
      fc.tuple(
        fc
          .constantFrom(...boundaries)
          .chain((b) => fc.integer({ min: Math.max(0, b - 40), max: b + 40 })),
        fc.integer({ min: 1, max: 200 }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(rangeArbitrary, fc.boolean(), async ([start, length], viaDriver) => {
        const offset = Math.min(start, total - 1);
        const expected = manifest.bytes.subarray(offset, Math.min(offset + length, total));
        let actual: Buffer;
        if (viaDriver) {
          const stream = await ctx.driver.read(
            { container: ctx.container, key: manifest.key },
            { offset, length: expected.length },
          );
          actual = await collect(stream);
        } else {
          const last = offset + length - 1;
          const { response, bytes } = await getBytes(url, { range: `bytes=${offset}-${last}` });
          expect(response.status).toBe(206);
          expect(response.headers.get('content-range')).toBe(
            `bytes ${offset}-${offset + expected.length - 1}/${total}`,
          );
          actual = bytes;
        }
        expect(actual.equals(expected)).toBe(true);
      }),
      { numRuns: 40 },
    );
    const suffix = await getBytes(url, { range: 'bytes=-1500' });
    expect(suffix.bytes.equals(manifest.bytes.subarray(total - 1500))).toBe(true);
    expect((await getBytes(url, { range: `bytes=${total}-` })).response.status).toBe(416);
  });

  it('joins a manifest of manifests, whole and by range', async () => {
    const ctx = context();
    const inner = await buildTarLikeManifest(ctx);
    const innerLocation = { container: ctx.container, key: inner.key };
    const key = `${inner.key}.outer`;
    const stored = await ctx.driver.putManifest({ container: ctx.container, key }, [
      { data: Buffer.from('<') },
      { object: innerLocation, range: { offset: 100, length: 75_000 } },
      { object: innerLocation },
    ]);
    const expected = Buffer.concat([
      Buffer.from('<'),
      inner.bytes.subarray(100, 75_100),
      inner.bytes,
    ]);
    expect(stored.sizeBytes).toBe(expected.length);
    const url = signedUrl(ctx, 'GET', key);
    expect((await getBytes(url)).bytes.equals(expected)).toBe(true);
    const across = await getBytes(url, { range: 'bytes=74990-75300' });
    expect(across.bytes.equals(expected.subarray(74_990, 75_301))).toBe(true);
  });

  it('refuses a manifest with a missing segment or a wrong etag or size', async () => {
    const ctx = context();
    const key = uniqueKey('manifest/refused');
    const body = randomBody(100);
    expect((await putObject(ctx, `${key}/seg`, body)).status).toBe(201);
    const segment = { container: ctx.container, key: `${key}/seg` };
    const attempts: ManifestSegment[][] = [
      [{ object: { container: ctx.container, key: `${key}/absent` } }],
      [{ object: segment, etag: md5(Buffer.from('other')) }],
      [{ object: segment, sizeBytes: 99 }],
      [{ data: Buffer.from('only inline data') }],
    ];
    for (const segments of attempts) {
      const attempt = ctx.driver.putManifest({ container: ctx.container, key }, segments);
      await expect(attempt).rejects.toBeInstanceOf(StorageError);
      await expect(attempt).rejects.toMatchObject({ code: 'invalid_manifest' });
    }
    expect(await ctx.driver.head({ container: ctx.container, key })).toBeNull();
  });

  it('deletes a manifest together with its segments', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const result = await ctx.driver.deleteObject({ container: ctx.container, key: manifest.key });
    expect(result.deleted).toBe(manifest.segmentKeys.length + 1);
    for (const key of [manifest.key, ...manifest.segmentKeys]) {
      expect(await ctx.driver.head({ container: ctx.container, key }), key).toBeNull();
    }
    const again = await ctx.driver.deleteObject({ container: ctx.container, key: manifest.key });
    expect(again).toEqual({ deleted: 0, notFound: 1 });
  });

  it('deletes every object under a prefix, manifests with their segments', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const prefix = manifest.key.slice(0, manifest.key.indexOf('/package.tar') + 1);
    expect((await putObject(ctx, `${prefix}loose`, randomBody(10))).status).toBe(201);
    const sibling = `${prefix.slice(0, -1)}-sibling`;
    expect((await putObject(ctx, sibling, randomBody(10))).status).toBe(201);
    await ctx.driver.deletePrefix(ctx.container, prefix);
    for (const key of [manifest.key, ...manifest.segmentKeys, `${prefix}loose`]) {
      expect(await ctx.driver.head({ container: ctx.container, key }), key).toBeNull();
    }
    expect(await ctx.driver.head({ container: ctx.container, key: sibling })).not.toBeNull();
  });

  it('lists a prefix with sizes and etags, a manifest by its own etag', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const prefix = manifest.key.slice(0, manifest.key.indexOf('/package.tar') + 1);
    const loose = randomBody(10);
    expect((await putObject(ctx, `${prefix}loose`, loose)).status).toBe(201);
    const listed = [];
    for await (const item of ctx.driver.listObjects(ctx.container, prefix)) listed.push(item);
    const byKey = new Map(listed.map((item) => [item.key, item]));
    expect([...byKey.keys()].sort()).toEqual(
      [manifest.key, `${prefix}loose`, ...manifest.segmentKeys].sort(),
    );
    expect(byKey.get(`${prefix}loose`)).toEqual({
      key: `${prefix}loose`,
      sizeBytes: 10,
      etag: md5(loose),
      isManifest: false,
    });
    const info = await ctx.driver.head({ container: ctx.container, key: manifest.key });
    expect(byKey.get(manifest.key)).toMatchObject({ isManifest: true, etag: info!.etag });
    expect(info!.deleteAt).toBeNull();
    const none = [];
    for await (const item of ctx.driver.listObjects(ctx.container, `${prefix}nothing/`)) {
      none.push(item);
    }
    expect(none).toEqual([]);
  });

  it('deletes a manifest alone when asked to keep its segments', async () => {
    const ctx = context();
    const manifest = await buildTarLikeManifest(ctx);
    const location = { container: ctx.container, key: manifest.key };
    expect(await ctx.driver.deleteObject(location, { keepSegments: true })).toEqual({
      deleted: 1,
      notFound: 0,
    });
    expect(await ctx.driver.head(location)).toBeNull();
    for (const key of manifest.segmentKeys) {
      expect(await ctx.driver.head({ container: ctx.container, key }), key).not.toBeNull();
    }
  });

  it('reports missing objects and impossible ranges on driver reads', async () => {
    const ctx = context();
    const key = uniqueKey('manifest/read');
    await expect(ctx.driver.read({ container: ctx.container, key })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await putObject(ctx, key, randomBody(10))).status).toBe(201);
    await expect(
      ctx.driver.read({ container: ctx.container, key }, { offset: 10, length: 5 }),
    ).rejects.toMatchObject({ code: 'range_not_satisfiable' });
  });
}
