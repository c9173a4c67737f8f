import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import type { TestServer } from '../../../test/harness';
import {
  contracts,
  defaultContractSettings,
  packageFiles,
  packageRecipients,
  packages,
  type PackageStatus,
} from '../../db/schema';

// Test support for the download suites: packages with real objects in the embedded store.

const HOUR = 3_600_000;
let counter = 0;

/** A file of a fixture package as the recipient should get it back. */
export interface FixtureFile {
  readonly path: string;
  readonly bytes: Buffer;
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** Stores an object through a signed PUT, as a browser would (to the app, or to Swift). */
export async function putObject(
  server: TestServer,
  container: string,
  key: string,
  body: Buffer,
): Promise<void> {
  const { url } = server.ctx.storage.signTempUrl({
    method: 'PUT',
    container,
    key,
    expires: Math.floor(Date.now() / 1000) + 600,
  });
  if (server.ctx.storage.kind === 'swift') {
    // Swift is another server: the signed URL goes there, not to the app.
    const stored = await fetch(url, { method: 'PUT', body });
    if (stored.status !== 201) throw new Error(`PUT ${key}: ${stored.status}`);
    return;
  }
  const { pathname, search } = new URL(url);
  const response = await server.app.inject({
    method: 'PUT',
    url: pathname + search,
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`PUT ${key}: ${response.statusCode}`);
}

/** Puts the contract's notification list to one enabled watcher. */
export async function watchContract(server: TestServer, contractId: number, email: string) {
  await server.ctx.db
    .update(contracts)
    .set({
      settings: {
        ...defaultContractSettings,
        notifications: [{ name: 'Watch', email, enabled: true }],
      },
    })
    .where(eq(contracts.id, contractId));
}

export interface PackageOptions {
  contractId: number;
  senderId: number;
  name?: string;
  status?: PackageStatus;
  /**
   * 'sample': own objects, a slab of three, a manifest, an empty file, a long path; 'one': a
   * 5,000-byte file; 'large': a 32 MiB file, more than a connection buffers; a list: these
   * files, each its own object.
   */
  files?: 'sample' | 'one' | 'large' | 'none' | readonly FixtureFile[];
  expiresInHours?: number;
  /** Records each file's xxh128 as the sender's engine would (`null` leaves one unrecorded). */
  xxh128?: (file: FixtureFile) => Promise<string | null> | string | null;
}

/**
 * A sent package whose stored files are real objects: each file row points at its own object,
 * at a range of a shared slab object, or at an SLO manifest, exactly as uploads leave them.
 */
export async function createPackage(server: TestServer, options: PackageOptions) {
  const { db, storage } = server.ctx;
  const n = `${process.pid}-${++counter}`;
  const container = `dl-${n}`;
  const prefix = `p${n}/`;
  await storage.ensureContainer(container);
  const [pkg] = await db
    .insert(packages)
    .values({
      slug: `dl${n}`,
      contractId: options.contractId,
      senderId: options.senderId,
      name: options.name ?? `Package ${n}`,
      status: options.status ?? 'complete',
      validFrom: new Date(Date.now() - HOUR),
      expiresAt: new Date(Date.now() + (options.expiresInHours ?? 72) * HOUR),
      container,
      objectPrefix: prefix,
    })
    .returning();
  const files: FixtureFile[] = [];
  const row = async (file: FixtureFile, objectKey: string, etag: string, slabStart?: number) => {
    files.push(file);
    const xxh128 = options.xxh128 ? await options.xxh128(file) : null;
    return db.insert(packageFiles).values({
      xxh128,
      packageId: pkg!.id,
      userPath: file.path,
      size: file.bytes.length,
      state: 'stored',
      objectKey,
      etag,
      slabStart: slabStart ?? null,
    });
  };
  const own = async (file: FixtureFile) => {
    const key = `${prefix}${files.length}-${randomBytes(3).toString('hex')}`;
    await putObject(server, container, key, file.bytes);
    await row(file, key, md5(file.bytes));
  };

  if (Array.isArray(options.files)) for (const file of options.files) await own(file);
  if (options.files === 'one') await own({ path: 'only.bin', bytes: randomBytes(5000) });
  if (options.files === 'large') await own({ path: 'big.bin', bytes: randomBytes(32 << 20) });
  if ((options.files ?? 'sample') === 'sample') {
    await own({ path: 'readme.txt', bytes: Buffer.from('Read me first.\n'.repeat(67)) });
    await own({ path: 'empty.txt', bytes: Buffer.alloc(0) });
    await own({ path: `deep/${'x'.repeat(120)}/file.dat`, bytes: randomBytes(2001) });

    // A slab: three small files packed at offsets, with bytes around them that are no file's.
    const slabbed = [
      { path: 'docs/a.txt', bytes: randomBytes(700) },
      { path: 'docs/b.bin', bytes: randomBytes(513) },
      { path: 'docs/ünïcode — naïve.txt', bytes: Buffer.from('é') },
    ];
    const slab = Buffer.concat([randomBytes(5), ...slabbed.map((f) => f.bytes), randomBytes(37)]);
    const slabKey = `${prefix}slab-0`;
    await putObject(server, container, slabKey, slab);
    let at = 5;
    for (const file of slabbed) {
      // As updateslabfile records them: every file of a slab carries the slab object's etag.
      await row(file, slabKey, md5(slab), at);
      at += file.bytes.length;
    }

    // A large file uploaded as segments and joined by a manifest.
    const segments = [randomBytes(400_000), randomBytes(400_000), randomBytes(123_457)];
    const manifestKey = `${prefix}video.bin`;
    for (const [i, body] of segments.entries()) {
      await putObject(server, container, `${manifestKey}/seg/${i}`, body);
    }
    const stored = await storage.putManifest(
      { container, key: manifestKey },
      segments.map((body, i) => ({
        object: { container, key: `${manifestKey}/seg/${i}` },
        etag: md5(body),
        sizeBytes: body.length,
      })),
    );
    await row({ path: 'big/video.bin', bytes: Buffer.concat(segments) }, manifestKey, stored.etag);
  }
  return { pkg: pkg!, files };
}

/** Makes a user a recipient of a package. */
export async function addRecipient(
  server: TestServer,
  packageId: number,
  user: { id: number; email: string },
  fields: Partial<typeof packageRecipients.$inferInsert> = {},
) {
  const [recipient] = await server.ctx.db
    .insert(packageRecipients)
    .values({ packageId, userId: user.id, email: user.email, ...fields })
    .returning();
  return recipient!;
}

/**
 * Waits until `probe` answers something `done` accepts (records are written after responses).
 * On timeout it answers the last value, so the caller's assertion shows what was there.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  let last: { value: T } | undefined;
  await vi
    .waitFor(
      async () => {
        last = { value: await probe() };
        if (!done(last.value)) throw new Error('not yet');
      },
      { timeout: timeoutMs, interval: 25 },
    )
    .catch((error: unknown) => {
      if (!last) throw error;
    });
  return last!.value;
}

/** Unpacks tar bytes with the system's tar and returns every regular file by path. */
export function extractWithTar(tar: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dl-untar-'));
  try {
    const archive = path.join(dir, 'archive.tar');
    writeFileSync(archive, tar);
    const out = path.join(dir, 'out');
    mkdirSync(out);
    const result = spawnSync('tar', ['-xf', archive, '-C', out], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
    const found = new Map<string, Buffer>();
    const walk = (at: string) => {
      for (const name of readdirSync(at)) {
        const full = path.join(at, name);
        if (statSync(full).isDirectory()) walk(full);
        else found.set(path.relative(out, full).split(path.sep).join('/'), readFileSync(full));
      }
    };
    walk(out);
    return found;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Extracted tar members apart: the package's files, and what the server wrote into its `ascmhl`
 * folder (the hash list and its chain), by path.
 */
export function apartFromMhl(found: Map<string, Buffer>) {
  const files = new Map<string, Buffer>();
  const mhl = new Map<string, Buffer>();
  for (const [path, bytes] of found) (path.startsWith('ascmhl/') ? mhl : files).set(path, bytes);
  return { files, mhl };
}
