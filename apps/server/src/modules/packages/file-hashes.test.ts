import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { xxhash128 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import {
  cleanObjectName,
  sendMessages,
  type BulkResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import {
  caller,
  groupOfSenderAndReceiver,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packageFiles } from '../../db/schema';
import { fileObjectName } from './object-names';

// The engine hashes every file with XXH128 while it uploads it (the hash ASC MHL records), and
// the server keeps that hash with the file. Here the hashes are computed by the test itself and
// the objects PUT by hand, so nothing of the engine is involved.

const HOUR = 3_600_000;

let server: TestServer;
let fx: ContractFixture;
useFixtureServer(async (t) => {
  ({ server, fx } = t);
  await groupOfSenderAndReceiver(server, fx, 'Team');
});

/** Deterministic bytes, different per seed. */
function bytesOf(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 13 + seed * 101 + (i >> 7)) & 0xff;
  return out;
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

const files = {
  notes: { path: 'docs/notes.txt', bytes: bytesOf(1500, 1) },
  empty: { path: 'docs/empty.txt', bytes: Buffer.alloc(0) },
  frame1: { path: 'frames/0001.dpx', bytes: bytesOf(3000, 2) },
  frame2: { path: 'frames/0002.dpx', bytes: bytesOf(4100, 3) },
  take: { path: 'video/take 1.mov', bytes: bytesOf(70_000 + 1234, 4) },
};
const all = Object.values(files);

async function createPackage(): Promise<SenderPackage> {
  const response = await caller(server)(fx.sender).post('/api/packages/create/', {
    contract: fx.contract.slug,
    name: 'Hashed',
    recipients: [{ id: fx.receiver.user.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
    expected_files: all.length,
    expected_size: all.reduce((sum, f) => sum + f.bytes.length, 0),
    intended_files: all.map((f) => ({ filename: f.path, size: f.bytes.length })),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function grants(pkg: SenderPackage): Promise<BulkResponse> {
  const response = await caller(server)(fx.sender).post(`/api/packages/${pkg.slug}/bulk/`, {
    batches: [],
    large_file_total_size: files.take.bytes.length,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** PUTs an object under the package's prefix with the prefix grant; answers `/container/key`. */
async function put(grant: BulkResponse, name: string, bytes: Buffer): Promise<string> {
  const t = grant.tempurl_data;
  const url = new URL(`${t.swift_endpoint}${t.swift_path}${name}${new URL(t.temp_url).search}`);
  const response = await server.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: bytes,
  });
  expect(response.statusCode, name).toBe(201);
  return `/${t.container}/${t.object_prefix}${name}`;
}

function report(pkg: SenderPackage, step: string, payload: unknown) {
  return caller(server)(fx.sender).post(
    `/api/packages/${pkg.contract.slug}/${pkg.slug}/${step}/`,
    payload,
  );
}

async function storedHashes(pkg: SenderPackage): Promise<Record<string, string | null>> {
  const rows = await server.ctx.db
    .select({ path: packageFiles.userPath, xxh128: packageFiles.xxh128 })
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, pkg.id), eq(packageFiles.state, 'stored')));
  return Object.fromEntries(rows.map((r) => [r.path, r.xxh128]));
}

describe('a file’s xxh128', () => {
  it('is kept as reported for whole files, files in a slab and large files', async () => {
    const expected = Object.fromEntries(
      await Promise.all(all.map(async (f) => [f.path, await xxhash128(f.bytes)] as const)),
    );
    // The published XXH128 of no bytes: the library agrees with the reference implementation.
    expect(expected[files.empty.path]).toBe('99aa06d3014798d86001c324468d497f');

    const pkg = await createPackage();
    const first = await grants(pkg);
    const whole = [files.notes, files.empty];
    const entries = [];
    for (const f of whole) {
      entries.push({
        object_path: await put(first, fileObjectName(f.path), f.bytes),
        etag: md5(f.bytes),
        size_bytes: f.bytes.length,
        user_path: f.path,
        xxh128: expected[f.path],
      });
    }
    expect((await report(pkg, 'updatefiles', { files: entries })).statusCode).toBe(200);

    // Mid-upload the engine asks for fresh grants; they work for the rest of the upload.
    const renewed = await grants(pkg);
    expect(renewed.tempurl_data.expires).toBeGreaterThanOrEqual(first.tempurl_data.expires);
    const frames = [files.frame1, files.frame2];
    const slab = await put(renewed, 'slabs/0', Buffer.concat(frames.map((f) => f.bytes)));
    const slabReport = await report(pkg, 'updateslabfile', {
      object_path: slab,
      size: files.frame1.bytes.length + files.frame2.bytes.length,
      files: [
        {
          user_path: files.frame1.path,
          start_byte: 0,
          end_byte: files.frame1.bytes.length,
          xxh128: expected[files.frame1.path],
        },
        {
          user_path: files.frame2.path,
          start_byte: files.frame1.bytes.length,
          end_byte: files.frame1.bytes.length + files.frame2.bytes.length,
          xxh128: expected[files.frame2.path],
        },
      ],
    });
    expect(slabReport.statusCode, slabReport.body).toBe(200);

    const segments = [files.take.bytes.subarray(0, 70_000), files.take.bytes.subarray(70_000)];
    const content = [];
    for (const [i, bytes] of segments.entries()) {
      // Named as the engine names segments: the file's clean name with a digest, their size, index.
      const folder = `segments/${cleanObjectName(files.take.path, '0123456789abcdef')}/70000`;
      const path = await put(renewed, `${folder}/00000${i}`, Buffer.from(bytes));
      content.push({ path, etag: md5(bytes), size_bytes: bytes.length });
    }
    const slo = await report(pkg, 'slo', {
      upload_filename: files.take.path,
      size: files.take.bytes.length,
      xxh128: expected[files.take.path],
      slo_content: content,
    });
    expect(slo.statusCode, slo.body).toBe(200);

    expect(await storedHashes(pkg)).toEqual(expected);
    const sent = await report(pkg, 'update', { complete: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await storedHashes(pkg)).toEqual(expected);
  });

  it('is optional: a file reported without one has none', async () => {
    const pkg = await createPackage();
    const grant = await grants(pkg);
    const f = files.notes;
    const object = await put(grant, fileObjectName(f.path), f.bytes);
    const entry = { object_path: object, size_bytes: f.bytes.length, user_path: f.path };
    expect((await report(pkg, 'updatefiles', { files: [entry] })).statusCode).toBe(200);
    expect(await storedHashes(pkg)).toEqual({ [f.path]: null });
  });

  it('must be 32 lowercase hex digits, else 400 naming the field', async () => {
    const pkg = await createPackage();
    const grant = await grants(pkg);
    const f = files.notes;
    const object = await put(grant, fileObjectName(f.path), f.bytes);
    const good = await xxhash128(f.bytes);
    const entry = { object_path: object, size_bytes: f.bytes.length, user_path: f.path };
    for (const bad of [good.toUpperCase(), good.slice(1), `${good}0`, 'z'.repeat(32)]) {
      const refused = await report(pkg, 'updatefiles', { files: [{ ...entry, xxh128: bad }] });
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json()).toEqual({ files: [sendMessages.badXxh128] });
    }
    const notText = await report(pkg, 'updatefiles', { files: [{ ...entry, xxh128: 42 }] });
    expect(notText.statusCode).toBe(400);
    const badSlab = await report(pkg, 'updateslabfile', {
      object_path: object,
      size: f.bytes.length,
      files: [{ user_path: f.path, start_byte: 0, end_byte: f.bytes.length, xxh128: 'abc' }],
    });
    expect(badSlab.statusCode).toBe(400);
    expect(badSlab.json()).toEqual({ files: [sendMessages.badXxh128] });
    const badSlo = await report(pkg, 'slo', {
      upload_filename: f.path,
      size: f.bytes.length,
      xxh128: good.toUpperCase(),
      slo_content: [{ path: object, etag: md5(f.bytes), size_bytes: f.bytes.length }],
    });
    expect(badSlo.statusCode).toBe(400);
    expect(badSlo.json()).toEqual({ xxh128: [sendMessages.badXxh128] });
    expect(await storedHashes(pkg)).toEqual({});
  });
});
