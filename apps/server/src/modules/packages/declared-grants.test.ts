import { beforeAll, describe, expect, it } from 'vitest';
import {
  cleanObjectName,
  sendMessages,
  type BulkResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import { describeOnSwift, useTestServer, type TestServer } from '../../../test/harness';
import { everyKindOfFile, fileBytes, listeningSender, type TestFile } from '../../../test/uploader';
import { embeddedStoreRoot } from '../../storage';
import { ObjectFileStore } from '../../storage/embedded/object-file-store';

// A sender with send permission, trying every way to write more than the package declared:
// grants for other files or sizes, bigger objects, objects nobody declared, larger FormPosts,
// manifests beyond the file. None of it may land; a package never holds more than it declared.

const HOUR = 3_600_000;
const MiB = 1024 * 1024;

const setUp = (server: TestServer) => listeningSender(server, 'Team');
type SetUp = Awaited<ReturnType<typeof setUp>>;

// The declaration: two small files and a large one (over the test engine's 100 kB threshold).
const small: TestFile = { path: 'brief/a.txt', bytes: fileBytes(10, 1) };
const medium: TestFile = { path: 'brief/b.bin', bytes: fileBytes(1000, 2) };
const large: TestFile = { path: 'video/big.mov', bytes: fileBytes(200_000, 3) };
const declared = [small, medium, large];
const declaredBytes = declared.reduce((sum, f) => sum + f.bytes.length, 0);

async function createPackage({ fx, sender }: SetUp, files: { path: string; size: number }[]) {
  return sender.create({
    contract: fx.contract.slug,
    name: 'Declared',
    recipients: [{ id: fx.receiver.user.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
    expected_files: files.length,
    expected_size: files.reduce((sum, f) => sum + f.size, 0),
    intended_files: files.map((f) => ({ filename: f.path, size: f.size })),
  });
}

const sizes = (files: TestFile[]) => files.map((f) => ({ path: f.path, size: f.bytes.length }));

function bulk(env: SetUp, pkg: SenderPackage, body: unknown) {
  return env.sender.call('POST', `/packages/${pkg.slug}/bulk/`, body);
}

/** A storage URL as it is reached: the embedded store answers on the listening port. */
function atServer(server: TestServer, env: SetUp, href: string) {
  const url = new URL(href);
  if (url.origin !== new URL(server.ctx.config.publicUrl).origin) return url.href;
  return env.origin + url.pathname + url.search;
}

/** A storage URL under the prefix grant. */
function underPrefix(server: TestServer, env: SetUp, grants: BulkResponse, name: string) {
  const t = grants.tempurl_data;
  const search = new URL(t.temp_url).search;
  return atServer(server, env, `${t.swift_endpoint}${t.swift_path}${name}${search}`);
}

/** PUTs `body` by the prefix grant; a store that hangs up on a refused body counts as 413. */
async function put(
  server: TestServer,
  env: SetUp,
  grants: BulkResponse,
  name: string,
  body: Buffer | ReadableStream<Uint8Array>,
): Promise<number> {
  try {
    const response = await fetch(underPrefix(server, env, grants, name), {
      method: 'PUT',
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 413;
  }
}

/** `total` bytes as a stream without a length: a PUT of it goes chunked. */
function streamOf(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = new Uint8Array(Math.min(MiB, total - sent)).fill(7);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** FormPosts parts (filename, bytes) with the grant of the bulk answer's first batch. */
async function formPost(
  server: TestServer,
  env: SetUp,
  grants: BulkResponse,
  parts: [string, Buffer][],
) {
  const batch = grants.bulk_data.file_data[0]!;
  const form = new FormData();
  form.set('redirect', batch.redirect);
  form.set('max_file_size', String(batch.max_file_size));
  form.set('max_file_count', String(batch.max_file_count));
  form.set('expires', String(batch.expires));
  form.set('signature', batch.sig);
  parts.forEach(([name, bytes], i) => form.append(`file${i}`, new Blob([bytes]), name));
  const response = await fetch(atServer(server, env, batch.url), { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

const objectName = (grants: BulkResponse, file: TestFile) =>
  grants.bulk_data.file_data[0]!.cleaned_files.find((c) => c.path === file.path)!.clean_filename;

/** A segment's name as the engine makes it: clean name with a digest, segment size, index. */
const segmentName = (file: TestFile, digest: string, size: number, index: number) =>
  `segments/${cleanObjectName(file.path, digest)}/${size}/${String(index).padStart(6, '0')}`;

/** The bytes the embedded store holds under the package's prefix (manifests excepted). */
async function storedBytes(server: TestServer, grants: BulkResponse): Promise<number> {
  const store = new ObjectFileStore(embeddedStoreRoot(server.dataDir), 'AUTH_filerunner');
  let bytes = 0;
  for await (const record of store.listObjects(
    grants.tempurl_data.container,
    grants.tempurl_data.object_prefix,
  )) {
    if (!record.manifest) bytes += record.size;
  }
  return bytes;
}

/** Every way of asking `bulk` for grants beyond the declaration, each refused with a 400. */
async function refusesGrantsBeyondTheDeclaration(env: SetUp) {
  const pkg = await createPackage(env, sizes(declared));
  const refusals: [unknown, Record<string, string[]>][] = [
    // The probe's FormPost of 3 x 50 MiB for one 10-byte file.
    [
      [{ path: small.path, size: 50 * MiB }],
      { batches: [`${sendMessages.undeclaredSize} (${small.path})`] },
    ],
    [
      [small, small, small].map((f) => ({ path: f.path, size: f.bytes.length })),
      { batches: [`${sendMessages.fileInTwoBatches} (${small.path})`] },
    ],
    [
      [{ path: 'brief/extra.txt', size: 10 }],
      { batches: [`${sendMessages.unknownFile} (brief/extra.txt)`] },
    ],
  ];
  for (const [files, body] of refusals) {
    const answer = await bulk(env, pkg, { batches: [{ batch_name: 'batch-1', files }] });
    expect(answer, JSON.stringify(files)).toEqual({ status: 400, body });
  }
  const twice = await bulk(env, pkg, {
    batches: [
      { batch_name: 'batch-1', files: sizes([small]) },
      { batch_name: 'batch-2', files: sizes([small]) },
    ],
  });
  expect(twice).toEqual({
    status: 400,
    body: { batches: [`${sendMessages.fileInTwoBatches} (${small.path})`] },
  });
  const largeTotal = await bulk(env, pkg, {
    batches: [],
    large_file_total_size: declaredBytes + 1,
  });
  expect(largeTotal).toEqual({
    status: 400,
    body: { large_file_total_size: [sendMessages.largeFilesTooLarge] },
  });

  // One call of 30,000 empty batches is refused unread, not answered with megabytes of grants;
  // a few, within what the declaration needs, are refused as empty.
  const empty = (count: number) =>
    bulk(env, pkg, {
      batches: Array.from({ length: count }, (_, i) => ({ batch_name: `b${i}`, files: [] })),
    });
  expect(await empty(30_000)).toEqual({
    status: 413,
    body: { detail: sendMessages.planTooLarge },
  });
  expect(await empty(3)).toEqual({
    status: 400,
    body: { batches: [`${sendMessages.emptyBatch} (b0)`] },
  });

  // A batch is at most 300 MB, whatever the files declared.
  const bigFiles = [
    { path: 'one.raw', size: 160_000_000 },
    { path: 'two.raw', size: 160_000_000 },
  ];
  const big = await createPackage(env, bigFiles);
  const tooBig = await bulk(env, big, { batches: [{ batch_name: 'batch-1', files: bigFiles }] });
  expect(tooBig).toEqual({
    status: 400,
    body: { batches: [`${sendMessages.batchTooLarge} (batch-1)`] },
  });

  // What the declaration allows is granted, sized by it.
  const honest = await bulk(env, pkg, {
    batches: [{ batch_name: 'batch-1', files: sizes([small, medium]) }],
    large_file_total_size: large.bytes.length,
  });
  expect(honest.status).toBe(200);
  const batch = (honest.body as unknown as BulkResponse).bulk_data.file_data[0]!;
  expect([batch.max_file_size, batch.max_file_count]).toEqual([1000, 2]);
  return { pkg, grants: honest.body as unknown as BulkResponse };
}

/** Manifests beyond the declared file, each refused with a 400. */
async function refusesManifestsBeyondTheDeclaration(env: SetUp, pkg: SenderPackage) {
  const prefix = `/${pkg.slug}`;
  const slo = (body: Record<string, unknown>) =>
    env.sender.call('POST', `/packages/${pkg.contract.slug}${prefix}/slo/`, body);
  const segment = (i: number, size: number) => ({
    path: `packages/${pkg.slug}/${segmentName(large, 'abcdef0123456789', 800, i)}`,
    etag: 'd41d8cd98f00b204e9800998ecf8427e',
    size_bytes: size,
  });
  const tooMany = await slo({
    upload_filename: large.path,
    size: large.bytes.length,
    slo_content: Array.from({ length: 251 }, (_, i) => segment(i, 800)),
  });
  expect(tooMany).toEqual({ status: 400, body: { slo_content: [sendMessages.tooManySegments] } });
  const longer = await slo({
    upload_filename: large.path,
    size: large.bytes.length + 800,
    slo_content: Array.from({ length: 251 - 1 }, (_, i) => segment(i, 804)),
  });
  expect(longer).toEqual({ status: 400, body: { size: [sendMessages.sizeMismatch] } });
  const undeclared = await slo({
    upload_filename: 'video/other.mov',
    size: 800,
    slo_content: [segment(0, 800)],
  });
  expect(undeclared).toEqual({
    status: 400,
    body: { user_path: [`${sendMessages.unknownFile} (video/other.mov)`] },
  });
}

describe('a hostile sender on the embedded store', () => {
  let server: TestServer;
  let env: SetUp;
  useTestServer(async (t) => {
    ({ server } = t);
    env = await setUp(server);
  });

  it('gets no grant for files, sizes or batches beyond the declaration', async () => {
    await refusesGrantsBeyondTheDeclaration(env);
  });

  it('cannot PUT objects nobody declared, nor more bytes than declared', async () => {
    const { grants } = await refusesGrantsBeyondTheDeclaration(env);
    const putAs = (name: string, body: Buffer | ReadableStream<Uint8Array>) =>
      put(server, env, grants, name, body);

    // The declared file's own object: its size and no more, with a length or streamed.
    expect(await putAs(objectName(grants, small), fileBytes(20 * MiB, 4))).toBe(413);
    expect(await putAs(objectName(grants, small), streamOf(20 * MiB))).toBe(413);
    expect(await putAs(objectName(grants, small), fileBytes(11, 4))).toBe(413);
    expect(await putAs(objectName(grants, small), small.bytes)).toBe(201);
    // Names nobody declared.
    for (const name of ['extra.bin', 'brief/a.txt', `${objectName(grants, small)}.more`, 'x/y']) {
      expect(await putAs(name, fileBytes(10, 5)), name).toBe(403);
    }
    // Segments: only of the declared large file, inside it, each its own length at most.
    const digest = '0123456789abcdef';
    expect(await putAs(segmentName(large, digest, 100_000, 2), fileBytes(10, 6))).toBe(403);
    expect(await putAs(segmentName(large, digest, 100, 0), fileBytes(10, 6))).toBe(403);
    expect(await putAs(segmentName(large, digest, 100_000, 0), fileBytes(100_001, 6))).toBe(413);
    expect(await putAs(segmentName(large, digest, 100_000, 0), fileBytes(100_000, 6))).toBe(201);
    expect(await putAs(segmentName(large, digest, 100_000, 1), fileBytes(100_000, 7))).toBe(201);
    // The same segments under another digest (a file changed, or a sender writing on) find the
    // package's declared bytes used up.
    const other = 'fedcba9876543210';
    expect(await putAs(segmentName(large, other, 100_000, 0), fileBytes(100_000, 8))).toBe(413);
    expect(await putAs(segmentName(large, other, 100_000, 1), streamOf(100_000))).toBe(413);
    expect(await putAs('slabs/1-0123456789abcdef.tar', fileBytes(300_000, 9))).toBe(413);
    // Writing an object again replaces its bytes, it does not add to them.
    expect(await putAs(segmentName(large, digest, 100_000, 1), fileBytes(100_000, 10))).toBe(201);

    expect(await storedBytes(server, grants)).toBe(10 + 200_000);
    expect(await storedBytes(server, grants)).toBeLessThanOrEqual(declaredBytes);
  });

  it('cannot FormPost more, bigger or other files than declared', async () => {
    const { grants } = await refusesGrantsBeyondTheDeclaration(env);
    const post = (parts: [string, Buffer][]) => formPost(server, env, grants, parts);
    const a = objectName(grants, small);
    const b = objectName(grants, medium);

    // max_file_size is the batch's largest file (1000), but each file holds only its own size.
    expect(await post([[a, fileBytes(1000, 11)]])).toMatchObject({ status: 413 });
    expect(await post([[b, fileBytes(1001, 11)]])).toMatchObject({ status: 400 });
    expect(await post([['evil.txt', fileBytes(10, 12)]])).toMatchObject({ status: 403 });
    const three = await post([
      [a, small.bytes],
      [b, medium.bytes],
      [b, medium.bytes],
    ]);
    expect(three.status).toBe(400);
    expect(three.text).toMatch(/max file count exceeded/i);
    // The same name twice stores one object.
    expect(
      await post([
        [b, medium.bytes],
        [b, medium.bytes],
      ]),
    ).toMatchObject({ status: 201 });

    expect(await storedBytes(server, grants)).toBe(10 + 1000);
  });

  it('cannot join a manifest beyond the declared file', async () => {
    const { pkg } = await refusesGrantsBeyondTheDeclaration(env);
    await refusesManifestsBeyondTheDeclaration(env, pkg);
  });

  it('still sends an honest package of every kind of file within its declared size', async () => {
    const { slabbed, all } = everyKindOfFile();
    const pkg = await env.sender.createOf(all, {
      contract: env.fx.contract.slug,
      name: 'Honest',
      recipients: [{ id: env.fx.receiver.user.id }],
    });
    const { grants } = await env.sender.send(all, { pkg }, { slabbed });
    const files = all.reduce((sum, f) => sum + f.bytes.length, 0);
    // Slabs add their tar framing: a header and padding per file, two end blocks per slab.
    const framing = slabbed.length * 1024 + 1024;
    const stored = await storedBytes(server, grants[0]!);
    expect(stored).toBeGreaterThanOrEqual(files);
    expect(stored).toBeLessThanOrEqual(files + framing);
  });
});

// Swift cannot refuse an object under a prefix grant, but every grant the server signs follows
// the declaration, and Swift holds each FormPost to its max_file_size and max_file_count.
describeOnSwift('a hostile sender on OpenStack Swift (SWIFT_AUTH_URL)', (startServer) => {
  let server: TestServer;
  let env: SetUp;
  beforeAll(async () => {
    server = await startServer();
    env = await setUp(server);
  });

  it('gets no grant beyond the declaration, and Swift holds FormPosts to the grant', async () => {
    const { pkg, grants } = await refusesGrantsBeyondTheDeclaration(env);
    const post = (parts: [string, Buffer][]) => formPost(server, env, grants, parts);
    const a = objectName(grants, small);
    const b = objectName(grants, medium);
    expect((await post([[b, fileBytes(1001, 11)]])).status).toBe(400);
    const three = await post([
      [a, small.bytes],
      [b, medium.bytes],
      [b, medium.bytes],
    ]);
    expect(three.status).toBe(400);
    expect(three.text).toMatch(/max file count exceeded/i);
    await refusesManifestsBeyondTheDeclaration(env, pkg);
  });
});
