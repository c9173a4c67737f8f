import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { layoutTar } from '@filerunner/transfer';
import { buildApp, type BuiltApp } from '../../app';
import { packageFiles, packages } from '../../db/schema';
import {
  contractFixture,
  startTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { addRecipient, createPackage, extractWithTar, putObject } from './download-fixtures';
import * as repository from './downloads.repository';
import { PackageTarCache, type CachedTar } from './package-tar-cache';
import type { PackageRow } from '../../db/rows';

// The ranged requests of one download share the package's laid-out tar: the file rows are read
// when the grant is made, not again for each range, and what is kept can only serve the package
// (and the sizes) it was laid out for.

vi.mock('./downloads.repository', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./downloads.repository')>();
  return { ...actual, storedFiles: vi.fn(actual.storedFiles) };
});
/** How many times the package's file rows were read so far. */
const fileRowReads = () => vi.mocked(repository.storedFiles).mock.calls.length;

const FILES = 10_000;

let server: TestServer;
/** The app serving now: `server`'s, or the one started after it on the same data. */
let app: BuiltApp;
let origin: string;
let fx: ContractFixture;

beforeAll(async () => {
  server = await startTestServer();
  app = server;
  origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  fx = await contractFixture(server);
}, 60_000);
afterAll(async () => {
  if (app !== server) await app.app.close();
  await server.close();
});

/** The test server as fixtures take it, with whichever app serves now. */
const serving = (): TestServer => ({ ...server, app: app.app, ctx: app.ctx });

/** Stops the serving app and starts another on the same database and stored objects. */
async function restart(): Promise<void> {
  await app.app.close();
  app = await buildApp(server.ctx.config);
  origin = await app.app.listen({ host: '127.0.0.1', port: 0 });
}

interface SentFile {
  readonly path: string;
  readonly bytes: Buffer;
}

/**
 * A sent package of `files`, packed into slab objects of a thousand files each as the browser's
 * engine uploads small files, its rows written in batches (ten thousand uploads one by one
 * would take the test minutes). Every recipient is the fixture's receiver.
 */
async function slabPackage(files: readonly SentFile[], name: string, sentAt: Date) {
  const { pkg } = await createPackage(serving(), {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'none',
    name,
  });
  await app.ctx.db.update(packages).set({ sentAt }).where(eq(packages.id, pkg.id));
  for (let first = 0; first < files.length; first += 1000) {
    const slabbed = files.slice(first, first + 1000);
    const slab = Buffer.concat(slabbed.map((f) => f.bytes));
    const key = `${pkg.objectPrefix}slab-${first}`;
    await putObject(serving(), pkg.container, key, slab);
    const etag = createHash('md5').update(slab).digest('hex');
    let at = 0;
    const rows = slabbed.map((f) => {
      const row = {
        packageId: pkg.id,
        userPath: f.path,
        size: f.bytes.length,
        state: 'stored' as const,
        objectKey: key,
        etag,
        slabStart: at,
      };
      at += f.bytes.length;
      return row;
    });
    await app.ctx.db.insert(packageFiles).values(rows);
  }
  await addRecipient(serving(), pkg.id, fx.receiver.user);
  return pkg;
}

/** Asks for the tar's grant as the receiver; answers the download URL's path and the tar size. */
async function grant(slug: string): Promise<{ url: string; size: number }> {
  const response = await app.app.inject({
    method: 'GET',
    url: `/api/packages/${slug}/download/`,
    headers: fx.receiver.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ download_url: string; size: number }>();
  return { url: new URL(body.download_url).pathname, size: body.size };
}

async function fetchRange(url: string, start: number, end: number) {
  const response = await fetch(origin + url, { headers: { range: `bytes=${start}-${end}` } });
  expect(response.status).toBe(206);
  return { etag: response.headers.get('etag'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Deep folders, Unicode and names too long for a plain tar header (they take a PAX header). */
function manyFiles(): SentFile[] {
  return Array.from({ length: FILES }, (_, i) => {
    const folder = `shot-${String(Math.floor(i / 500)).padStart(2, '0')}`;
    const name =
      i % 997 === 0
        ? `${'long-name-'.repeat(12)}${i}.exr`
        : i % 101 === 0
          ? `plan ${i} — ünïcode.exr`
          : `frame.${String(i).padStart(6, '0')}.exr`;
    // Sizes around a tar block's: empty, a few bytes, just under and over 512, a few KiB.
    const size = [0, 1, 511, 512, 513, 1500, 3000][i % 7]!;
    return { path: `${folder}/${name}`, bytes: randomBytes(size) };
  });
}

describe('the laid-out tar of a package', () => {
  let files: SentFile[];
  let pkg: Awaited<ReturnType<typeof slabPackage>>;
  let whole: Buffer;
  let wholeEtag: string | null;
  let download: { url: string; size: number };

  beforeAll(async () => {
    files = manyFiles();
    pkg = await slabPackage(files, 'Frame sequence', new Date('2026-11-20T10:00:00Z'));
  }, 120_000);

  it('reads the file rows once per grant, not for each ranged request', async () => {
    const before = fileRowReads();
    download = await grant(pkg.slug);
    expect(fileRowReads()).toBe(before + 1);

    const response = await fetch(origin + download.url);
    expect(response.status).toBe(200);
    wholeEtag = response.headers.get('etag');
    whole = Buffer.from(await response.arrayBuffer());
    expect(whole.length).toBe(download.size);
    // Ten ranges at once, as the download engine fetches: none reads the rows again.
    const chunk = Math.ceil(download.size / 10);
    const parts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetchRange(download.url, i * chunk, Math.min(download.size, (i + 1) * chunk) - 1),
      ),
    );
    expect(Buffer.concat(parts.map((p) => p.bytes)).equals(whole)).toBe(true);
    expect(parts.every((p) => p.etag === wholeEtag)).toBe(true);
    expect(fileRowReads()).toBe(before + 1);

    // And the tar is the package: every file, byte for byte, as GNU tar unpacks it.
    const unpacked = extractWithTar(whole);
    for (const file of files)
      expect(unpacked.get(file.path)?.equals(file.bytes), file.path).toBe(true);
  }, 120_000);

  it('answers every range with the bytes of the whole tar, at any boundary, cached and after a restart', async () => {
    // The offsets where the layout changes what it sends: each header's and each file's start
    // and end, with the bytes either side.
    const layout = layoutTar([
      ...files
        .map((f) => ({ path: f.path, size: f.bytes.length, mtime: 0 }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    ]);
    const boundaries = layout.entries.flatMap((e) => [
      e.headerOffset,
      e.dataOffset,
      e.dataOffset + e.source.size,
    ]);
    const offset = fc.oneof(
      fc.nat(download.size - 1),
      fc
        .tuple(fc.constantFrom(...boundaries), fc.integer({ min: -1, max: 1 }))
        .map(([at, delta]) => Math.min(download.size - 1, Math.max(0, at + delta))),
    );
    // Mostly short ranges (each request costs its files' reads), some across most of the tar.
    const ranges = fc
      .oneof(
        { weight: 4, arbitrary: fc.tuple(offset, fc.integer({ min: 1, max: 64 * 1024 })) },
        { weight: 1, arbitrary: fc.tuple(offset, fc.integer({ min: 1, max: download.size })) },
      )
      .map(([start, length]) => ({ start, end: Math.min(download.size - 1, start + length - 1) }));
    const sameBytes = async () =>
      fc.assert(
        fc.asyncProperty(ranges, async ({ start, end }) => {
          const got = await fetchRange(download.url, start, end);
          expect(got.etag).toBe(wholeEtag);
          expect(got.bytes.equals(whole.subarray(start, end + 1))).toBe(true);
        }),
        { numRuns: 30 },
      );

    const before = fileRowReads();
    await sameBytes();
    expect(fileRowReads()).toBe(before);

    // A new process knows no layout: its first request reads the rows, and the same bytes
    // (and ETag) come back at every boundary.
    await restart();
    await sameBytes();
    expect(fileRowReads()).toBe(before + 1);
  }, 180_000);

  it("never serves a package with another's layout, however alike they are", async () => {
    // Same name, send time, paths and sizes: only the package (and the bytes) differ.
    const sentAt = new Date('2026-11-21T09:00:00Z');
    const shape = ['a.txt', 'b/c.bin', 'b/d.bin'];
    const first = shape.map((path) => ({ path, bytes: Buffer.alloc(700, 'a') }));
    const second = shape.map((path) => ({ path, bytes: Buffer.alloc(700, 'b') }));
    const one = await slabPackage(first, 'Twin', sentAt);
    const other = await slabPackage(second, 'Twin', sentAt);
    const oneGrant = await grant(one.slug);
    const otherGrant = await grant(other.slug);
    expect(otherGrant.size).toBe(oneGrant.size);

    // A fresh cache: the first package's tar is laid out and kept, then the other is asked for.
    await restart();
    const reads = fileRowReads();
    const oneBytes = await fetchRange(oneGrant.url, 0, oneGrant.size - 1);
    const otherBytes = await fetchRange(otherGrant.url, 0, otherGrant.size - 1);
    expect(fileRowReads()).toBe(reads + 2);
    expect(otherBytes.etag).not.toBe(oneBytes.etag);
    const unpacked = extractWithTar(otherBytes.bytes);
    for (const file of second) expect(unpacked.get(file.path)?.equals(file.bytes)).toBe(true);
    expect(extractWithTar(oneBytes.bytes).get('a.txt')?.equals(first[0]!.bytes)).toBe(true);
  }, 60_000);
});

describe('the cache of laid-out tars', () => {
  const HOST = 'files.example.com';
  /** A package row as far as the cache reads it. */
  const row = (id: number) => ({ id, name: `P${id}`, sentAt: new Date(0) }) as PackageRow;
  /** A laid-out tar of `count` files of `size` bytes with paths of `pathLength` characters. */
  const tarOf = (count: number, pathLength = 20): CachedTar => {
    const files = Array.from({ length: count }, (_, i) => ({
      userPath: `${i}`.padStart(pathLength, 'x'),
      objectKey: `k${i}`,
      size: 1,
    }));
    const layout = layoutTar(files.map((f) => ({ path: f.userPath, size: f.size, mtime: 0 })));
    const empty = new Uint8Array(0);
    return {
      tar: { files, written: [], mhl: { hashList: empty, chain: empty }, layout, mtime: 0 },
      etag: `"${count}"`,
    } as unknown as CachedTar;
  };
  const load = (tar: CachedTar) => vi.fn(async () => tar);

  it('keeps at most its number of tars, dropping the least recently used', async () => {
    const cache = new PackageTarCache({ entries: 2, bytes: 1 << 30 });
    const [a, b, c] = [tarOf(1), tarOf(2), tarOf(3)];
    cache.put(row(1), HOST, a);
    cache.put(row(2), HOST, b);
    await new Promise((resolve) => setImmediate(resolve));
    // Using the first makes the second the oldest.
    expect(await cache.tarFor(row(1), HOST, a.tar.layout.size, load(tarOf(9)))).toBe(a);
    cache.put(row(3), HOST, c);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.size).toBe(2);
    const again = load(b);
    await cache.tarFor(row(2), HOST, b.tar.layout.size, again);
    expect(again).toHaveBeenCalledOnce();
  });

  it('keeps no more than its bytes, and never a tar larger than all of them', async () => {
    const cache = new PackageTarCache({ entries: 100, bytes: 100_000 });
    const big = tarOf(1000, 40);
    cache.put(row(1), HOST, big);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.size).toBe(0);
    for (let id = 1; id <= 10; id++) cache.put(row(id), HOST, tarOf(40));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThan(10);
  });

  it('lays the tar out again for a grant of another size, and keys by package and host', async () => {
    const cache = new PackageTarCache();
    const kept = tarOf(2);
    cache.put(row(1), HOST, kept);
    const fresh = tarOf(5);
    const reload = load(fresh);
    expect(await cache.tarFor(row(1), HOST, fresh.tar.layout.size, reload)).toBe(fresh);
    expect(reload).toHaveBeenCalledOnce();
    // Replaced: the same size is served from the cache now.
    expect(await cache.tarFor(row(1), HOST, fresh.tar.layout.size, load(kept))).toBe(fresh);
    const elsewhere = load(tarOf(5));
    await cache.tarFor(row(1), 'other.example.com', fresh.tar.layout.size, elsewhere);
    await cache.tarFor(row(2), HOST, fresh.tar.layout.size, elsewhere);
    expect(elsewhere).toHaveBeenCalledTimes(2);
  });

  it('shares one load among requests that arrive together', async () => {
    const cache = new PackageTarCache();
    const tar = tarOf(3);
    const once = load(tar);
    const got = await Promise.all(
      Array.from({ length: 10 }, () => cache.tarFor(row(1), HOST, tar.tar.layout.size, once)),
    );
    expect(got.every((t) => t === tar)).toBe(true);
    expect(once).toHaveBeenCalledOnce();
  });
});
