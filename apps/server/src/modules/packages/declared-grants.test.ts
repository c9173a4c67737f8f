import { beforeAll, describe, expect, it } from 'vitest';
import {
  cleanObjectName,
  sendMessages,
  type BulkResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import { describeOnSwift, useTestServer, type TestServer } from '../../../test/harness';
import {
  everyKindOfFile,
  fileBytes,
  listeningSender,
  md5,
  type TestFile,
} from '../../../test/uploader';
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

/**
 * PUTs `body` with the object's own grant when the grants list it, else with the grant over the
 * prefix; a store that hangs up on a refused body counts as 413.
 */
async function put(
  server: TestServer,
  env: SetUp,
  grants: BulkResponse,
  name: string,
  body: Buffer | ReadableStream<Uint8Array>,
): Promise<number> {
  const own = grants.tempurl_data.objects.find((o) => o.name === name);
  const url = own ? atServer(server, env, own.temp_url) : underPrefix(server, env, grants, name);
  try {
    const response = await fetch(url, {
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

/**
 * FormPosts parts (filename, bytes) with the grant of the bulk answer's first batch; `extra`
 * fields (not signed, as a hostile sender adds them) go before the files.
 */
async function formPost(
  server: TestServer,
  env: SetUp,
  grants: BulkResponse,
  parts: [string, Buffer][],
  extra: Record<string, string> = {},
) {
  const batch = grants.bulk_data.file_data[0]!;
  const form = new FormData();
  form.set('redirect', batch.redirect);
  form.set('max_file_size', String(batch.max_file_size));
  form.set('max_file_count', String(batch.max_file_count));
  form.set('expires', String(batch.expires));
  form.set('signature', batch.sig);
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
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

const DIGEST = '0123456789abcdef';

/**
 * Every way of listing objects (slabs, segments) beyond the declaration, each refused with a
 * 400 naming it; what the declaration allows is answered with a PUT grant per object.
 */
async function refusesObjectsBeyondTheDeclaration(env: SetUp) {
  const pkg = await createPackage(env, sizes(declared));
  const listing = (objects: { name: string; size: number }[]) =>
    bulk(env, pkg, { batches: [], large_file_total_size: 0, objects });
  const segment = (index: number, size = 100_000, digest = DIGEST) => ({
    name: segmentName(large, digest, size, index),
    size: Math.min(size, large.bytes.length - index * size),
  });
  const refused = (message: string) => ({ status: 400, body: { objects: [message] } });

  for (const name of ['extra.bin', 'brief/a.txt', 'x/y', 'slabs/..', `segments/a/1/000000`]) {
    expect(await listing([{ name, size: 10 }]), name).toEqual(
      refused(`${sendMessages.undeclaredObject} (${name})`),
    );
  }
  // A segment past the end of the file, or cut finer than 250 segments allow.
  for (const object of [segment(2), segment(0, 100)]) {
    expect(await listing([object]), object.name).toEqual(
      refused(`${sendMessages.undeclaredObject} (${object.name})`),
    );
  }
  const oversize = { ...segment(0), size: 100_001 };
  expect(await listing([oversize])).toEqual(
    refused(`${sendMessages.objectOverAllowance} (${oversize.name})`),
  );
  expect(await listing([segment(0), segment(1), segment(0)])).toEqual(
    refused(`${sendMessages.objectListedTwice} (${segment(0).name})`),
  );
  // More objects than the declaration allows (3 files: 54), each within its own allowance.
  const fine = Array.from({ length: 60 }, (_, i) => segment(i, 800));
  expect(await listing(fine)).toEqual(refused(sendMessages.objectsBeyondDeclared));
  // More bytes: the large file twice, under two digests.
  expect(await listing([segment(0), segment(1), segment(0, 100_000, 'fedcba9876543210')])).toEqual(
    refused(sendMessages.objectsBeyondDeclared),
  );
  // A body longer than the declared files' objects can need is refused unread.
  const long = await listing(
    Array.from({ length: 5000 }, (_, i) => ({ name: `slabs/${'x'.repeat(200)}${i}`, size: 1 })),
  );
  expect(long).toEqual({ status: 413, body: { detail: sendMessages.planTooLarge } });

  // What the declaration allows is granted, one plain PUT TempURL per object.
  const objects = [segment(0), segment(1), { name: 'slabs/1-0123456789abcdef.tar', size: 4000 }];
  const honest = await listing(objects);
  expect(honest.status).toBe(200);
  const grants = honest.body as unknown as BulkResponse;
  expect(grants.tempurl_data.objects.map((o) => o.name)).toEqual(objects.map((o) => o.name));
  for (const object of grants.tempurl_data.objects) {
    const url = new URL(object.temp_url);
    expect(url.pathname.endsWith(`/${grants.tempurl_data.object_prefix}${object.name}`)).toBe(true);
    expect(url.searchParams.has('temp_url_prefix')).toBe(false);
  }
  return { pkg, grants, objects };
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

/** The package's objects in storage, through the server's own driver, and their bytes. */
async function objectsOf(server: TestServer, grants: BulkResponse) {
  const t = grants.tempurl_data;
  const keys: string[] = [];
  let bytes = 0;
  for await (const item of server.ctx.storage.listObjects(t.container, t.object_prefix)) {
    keys.push(item.key.slice(t.object_prefix.length));
    if (!item.isManifest) bytes += item.sizeBytes;
  }
  return { keys, bytes };
}

const finalise = (env: SetUp, pkg: SenderPackage) =>
  env.sender.upload(pkg, 'update', { complete: true });

/**
 * Objects written through a grant that no recorded file uses are gone once the package is
 * sent; `junk` maps each name to the PUT's expected answer, and whether `bulk` listed it (Swift
 * takes a listed name, the embedded store any declared one).
 */
async function removesWhatNobodyRecorded(
  server: TestServer,
  env: SetUp,
  junk: [name: string, bytes: Buffer, status: number, listed?: boolean][],
) {
  const pkg = await createPackage(env, sizes(declared));
  const listed = junk
    .filter(([, , , l]) => l)
    .map(([name, bytes]) => ({ name, size: bytes.length }));
  const grants = await env.sender.grants(pkg, [small, medium], large.bytes.length, listed);
  for (const [name, bytes, status] of junk) {
    expect(await put(server, env, grants, name, bytes), name).toBe(status);
  }
  const before = await objectsOf(server, grants);
  for (const [name, , status] of junk) {
    if (status === 201) expect(before.keys).toContain(name);
  }
  await env.sender.send(declared, { pkg });
  const after = await objectsOf(server, grants);
  for (const [name] of junk) expect(after.keys).not.toContain(name);
  expect(after.keys).toContain(objectName(grants, small));
  expect(after.bytes).toBe(declaredBytes);
}

/** A recorded object written again after its report: the package is refused, nothing sent. */
async function refusesAnObjectChangedAfterItsReport(env: SetUp) {
  const pkg = await createPackage(env, sizes([small, medium]));
  const grants = await env.sender.grants(pkg, [small, medium]);
  const reports = await env.sender.formPost(grants, [small, medium]);
  expect((await env.sender.upload(pkg, 'updatefiles', { files: reports })).status).toBe(200);
  // Written again through the FormPost grant, still valid.
  const again = await env.sender.postForm(grants, [{ path: small.path, bytes: fileBytes(10, 99) }]);
  expect(again.status).toBe(201);
  expect(await finalise(env, pkg)).toEqual({
    status: 400,
    body: {
      detail: sendMessages.storageNotAsDeclared,
      files: [`${small.path}: ${sendMessages.objectChanged}`],
    },
  });
  // Uploaded again and reported again, it is sent.
  const resent = await env.sender.formPost(grants, [small]);
  expect((await env.sender.upload(pkg, 'updatefiles', { files: resent })).status).toBe(200);
  expect((await finalise(env, pkg)).status).toBe(200);
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

  it('gets no PUT grant for objects beyond the declaration', async () => {
    const { grants, objects } = await refusesObjectsBeyondTheDeclaration(env);
    // Each listed object is written with its own grant, within its allowance.
    expect(await put(server, env, grants, objects[0]!.name, fileBytes(100_000, 3))).toBe(201);
    // The store holds each to its declared file's allowance by itself.
    expect(await put(server, env, grants, objects[1]!.name, fileBytes(100_001, 3))).toBe(413);
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

  it('finds objects nobody recorded gone once the package is sent', async () => {
    // The store admits only declared names; a segment of the large file under a digest the
    // engine did not use (a file that changed mid-upload) is one it admits, and nobody uses.
    await removesWhatNobodyRecorded(server, env, [
      [segmentName(large, '0123456789abcdef', 100_000, 1), fileBytes(10, 20), 201],
      ['extra.bin', fileBytes(10, 21), 403],
    ]);
  });

  it('is refused at send when a reported object was written again', async () => {
    await refusesAnObjectChangedAfterItsReport(env);
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
// the declaration, Swift holds each FormPost to its max_file_size and max_file_count, and
// sending the package removes or refuses whatever else the grants wrote.
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

  it('can PUT only the objects it listed: Swift answers 401 for any other', async () => {
    const { grants, objects } = await refusesObjectsBeyondTheDeclaration(env);
    const t = grants.tempurl_data;
    const [first, second] = objects as [(typeof objects)[0], (typeof objects)[0]];
    // A listed object, with its own grant.
    expect(await put(server, env, grants, first.name, fileBytes(100_000, 50))).toBe(201);
    // Other names under the prefix: the prefix grant writes nothing, declared or not.
    const unlisted = [
      'extra.bin',
      'brief/a.txt',
      'slabs/2-0123456789abcdef.tar',
      segmentName(large, 'fedcba9876543210', 100_000, 0),
    ];
    for (const name of [...unlisted, second.name]) {
      expect(await put(server, env, grants, name, fileBytes(10, 51)), name).toBe(
        name === second.name ? 201 : 401,
      );
    }
    const prefixPut = await fetch(underPrefix(server, env, grants, second.name), {
      method: 'PUT',
      body: fileBytes(10, 52),
    });
    expect(prefixPut.status).toBe(401);
    // One object's signature does not write another.
    const ownQuery = new URL(t.objects.find((o) => o.name === first.name)!.temp_url).search;
    const swapped = await fetch(`${t.swift_endpoint}${t.swift_path}extra.bin${ownQuery}`, {
      method: 'PUT',
      body: fileBytes(10, 53),
    });
    expect(swapped.status).toBe(401);
    // The prefix grant checks what is stored (a resume does), and only that.
    const head = await fetch(underPrefix(server, env, grants, first.name), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, '100000']);
    const { keys, bytes } = await objectsOf(server, grants);
    expect(keys.sort()).toEqual([first.name, second.name].sort());
    expect(bytes).toBeLessThanOrEqual(declaredBytes);
  });

  it('finds objects nobody recorded gone once the package is sent', async () => {
    // Only listed names can be written; one of the large file under a digest the engine did
    // not use (a file that changed mid-upload) is one the declaration allows, and nobody uses.
    await removesWhatNobodyRecorded(server, env, [
      ['extra.bin', fileBytes(50_000, 22), 401],
      ['brief/a.txt', fileBytes(MiB, 23), 401],
      [segmentName(large, '0123456789abcdef', 100_000, 1), fileBytes(100_000, 24), 201, true],
      [segmentName(large, '0123456789abcdef', 100, 7), fileBytes(100, 25), 401],
    ]);
  });

  it('sends an honest package of every kind of file, its bytes within the declaration', async () => {
    const { slabbed, all } = everyKindOfFile();
    const pkg = await env.sender.createOf(all, {
      contract: env.fx.contract.slug,
      name: 'Honest',
      recipients: [{ id: env.fx.receiver.user.id }],
    });
    const { grants } = await env.sender.send(all, { pkg }, { slabbed });
    // The engine listed its slab and segments, and PUT each with its own grant.
    expect(grants[0]!.tempurl_data.objects.map((o) => o.name.split('/')[0]).sort()).toEqual([
      'segments',
      'segments',
      'segments',
      'slabs',
    ]);
    const files = all.reduce((sum, f) => sum + f.bytes.length, 0);
    const framing = slabbed.length * 1024 + 1024;
    const { bytes } = await objectsOf(server, grants[0]!);
    expect(bytes).toBeGreaterThanOrEqual(files);
    expect(bytes).toBeLessThanOrEqual(files + framing);
  });

  it('refuses a file that storage was told to delete (FormPost x_delete_after)', async () => {
    const pkg = await createPackage(env, sizes([small, medium]));
    const grants = await env.sender.grants(pkg, [small, medium]);
    const a = objectName(grants, small);
    const b = objectName(grants, medium);
    const posted = await formPost(
      server,
      env,
      grants,
      [
        [a, small.bytes],
        [b, medium.bytes],
      ],
      { x_delete_after: '3600' },
    );
    expect(posted.status).toBe(201);
    const head = await server.ctx.storage.head({
      container: grants.tempurl_data.container,
      key: grants.tempurl_data.object_prefix + a,
    });
    expect(head?.deleteAt).toBeGreaterThan(Date.now() / 1000);
    const files = [small, medium].map((f) => ({
      object_path: grants.tempurl_data.object_prefix + objectName(grants, f),
      size_bytes: f.bytes.length,
      user_path: f.path,
    }));
    expect(await env.sender.upload(pkg, 'updatefiles', { files })).toEqual({
      status: 400,
      body: {
        detail: sendMessages.updateFilesFailed,
        files: [small, medium].map((f) => `${f.path}: ${sendMessages.objectExpires}`),
      },
    });
    // Nothing recorded, nothing sent; posted again without the field, the files are kept.
    expect((await finalise(env, pkg)).status).toBe(400);
    expect(await env.sender.formPost(grants, [small, medium])).toHaveLength(2);
    const kept = await server.ctx.storage.head({
      container: grants.tempurl_data.container,
      key: grants.tempurl_data.object_prefix + a,
    });
    expect(kept?.deleteAt).toBeNull();
    expect((await env.sender.upload(pkg, 'updatefiles', { files })).status).toBe(200);
    expect((await finalise(env, pkg)).status).toBe(200);
  });

  it('refuses to join segments that storage was told to delete', async () => {
    const joined: TestFile = { path: 'video/short.mov', bytes: fileBytes(2000, 40) };
    const pkg = await createPackage(env, sizes([small, medium, joined]));
    const grants = await env.sender.grants(pkg, [small, medium], joined.bytes.length);
    const names = [0, 1].map((i) => segmentName(joined, '0123456789abcdef', 1000, i));
    const parts = names.map((name, i): [string, Buffer] => [
      name,
      joined.bytes.subarray(i * 1000, (i + 1) * 1000),
    ]);
    expect((await formPost(server, env, grants, parts, { x_delete_at: '4102444800' })).status).toBe(
      201,
    );
    const slo = await env.sender.upload(pkg, 'slo', {
      upload_filename: joined.path,
      size: joined.bytes.length,
      slo_content: parts.map(([name, bytes]) => ({
        path: `/${grants.tempurl_data.container}/${grants.tempurl_data.object_prefix}${name}`,
        etag: md5(bytes),
        size_bytes: bytes.length,
      })),
    });
    expect(slo).toEqual({ status: 400, body: { slo_content: [sendMessages.objectExpires] } });
  });

  it('is refused at send when a reported object was written again', async () => {
    await refusesAnObjectChangedAfterItsReport(env);
  });

  it('never sends more stored bytes than the package declared', async () => {
    // Slabs the sender wrote and reported: the store took them, the send holds them to the
    // declaration. Declared: 10 + 1,000 bytes, with slab framing 4,608 bytes at most.
    const slabOf = (size: number, seed: number) => {
      const bytes = fileBytes(size, seed);
      small.bytes.copy(bytes, 512);
      medium.bytes.copy(bytes, 1536);
      return bytes;
    };
    const slabReport = (grants: BulkResponse, name: string, size: number) => ({
      object_path: grants.tempurl_data.object_prefix + name,
      size,
      files: [
        { user_path: small.path, start_byte: 512, end_byte: 522 },
        { user_path: medium.path, start_byte: 1536, end_byte: 2536 },
      ],
    });

    // One slab listed within the declaration, written far larger (a TempURL signs a path, not
    // a size): deleted at the send, and the send refused.
    const pkg = await createPackage(env, sizes([small, medium]));
    const grants = await env.sender.grants(pkg, [small, medium], 0, [
      { name: 'slabs/big.tar', size: 4000 },
    ]);
    expect(await put(server, env, grants, 'slabs/big.tar', slabOf(MiB, 30))).toBe(201);
    const big = slabReport(grants, 'slabs/big.tar', MiB);
    expect((await env.sender.upload(pkg, 'updateslabfile', big)).status).toBe(200);
    expect(await finalise(env, pkg)).toEqual({
      status: 400,
      body: {
        detail: sendMessages.storageNotAsDeclared,
        files: [`${small.path}, ${medium.path}: ${sendMessages.objectTooLarge}`],
      },
    });
    expect((await objectsOf(server, grants)).keys).toEqual([]);

    // Two slabs each within a slab's allowance, together beyond the declaration: not granted
    // together; granted one call each, written, and refused at the send.
    const twice = await createPackage(env, sizes([small, medium]));
    const both = ['slabs/one.tar', 'slabs/two.tar'].map((name) => ({ name, size: 4000 }));
    expect(
      await bulk(env, twice, { batches: [], large_file_total_size: 0, objects: both }),
    ).toEqual({ status: 400, body: { objects: [sendMessages.objectsBeyondDeclared] } });
    let twiceGrants = await env.sender.grants(twice, [small, medium]);
    for (const object of both) {
      twiceGrants = await env.sender.grants(twice, [small, medium], 0, [object]);
      expect(await put(server, env, twiceGrants, object.name, slabOf(4000, 31))).toBe(201);
    }
    const one = slabReport(twiceGrants, 'slabs/one.tar', 4000);
    const two = { ...slabReport(twiceGrants, 'slabs/two.tar', 4000), files: [one.files[1]] };
    one.files = [one.files[0]!];
    expect((await env.sender.upload(twice, 'updateslabfile', one)).status).toBe(200);
    expect((await env.sender.upload(twice, 'updateslabfile', two)).status).toBe(200);
    expect(await finalise(env, twice)).toEqual({
      status: 400,
      body: {
        detail: sendMessages.storageNotAsDeclared,
        files: [`${sendMessages.storedBeyondDeclared} (8000 bytes stored, at most 4608)`],
      },
    });
    expect((await objectsOf(server, twiceGrants)).bytes).toBe(8000);
  });
});
