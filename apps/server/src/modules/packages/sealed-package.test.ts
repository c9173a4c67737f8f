import { request } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BulkResponse, SenderPackage } from '@filerunner/protocol';
import { sendMessages } from '@filerunner/protocol';
import { describeOnSwift, useTestServer, type TestServer } from '../../../test/harness';
import { everyKindOfFile, fileBytes, listeningSender } from '../../../test/uploader';
import { packageFiles } from '../../db/schema';

// Once a package is sent its objects are sealed: the upload grants handed out for it (still
// valid for a while) may no longer change them, and a download never serves bytes other than
// the ones recorded when it was sent.

const HOUR = 3_600_000;

/** A listening server with a contract whose sender and receiver share a group. */
const setUp = (server: TestServer) => listeningSender(server, 'Team');

type SetUp = Awaited<ReturnType<typeof setUp>>;

/**
 * Creates a package of every kind of file for the receiver and holds grants of its own for it
 * (as someone who kept them would); `send` then uploads and sends it with the engine.
 */
async function withGrants({ fx, sender }: SetUp) {
  const { small, slabbed, large, all } = everyKindOfFile();
  const pkg = await sender.createOf(all, {
    contract: fx.contract.slug,
    name: 'Sealed',
    recipients: [{ id: fx.receiver.user.id }],
  });
  const grants = await sender.grants(pkg, small, large.bytes.length);
  const send = () => sender.send(all, { pkg }, { slabbed });
  return { pkg, grants, small, send };
}

/** Where storage keeps a file of a package, as the server recorded it. */
async function objectKeyOf(server: TestServer, packageId: number, userPath: string) {
  const [row] = await server.ctx.db
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, packageId), eq(packageFiles.userPath, userPath)));
  return row!.objectKey!;
}

/** A storage URL as the engine builds it from the prefix grant: `<endpoint><path><name>?grant`. */
function underPrefix(server: TestServer, origin: string, grants: BulkResponse, name: string) {
  const t = grants.tempurl_data;
  const url = new URL(`${t.swift_endpoint}${t.swift_path}${name}${new URL(t.temp_url).search}`);
  // The embedded store answers on the listening port, not at PUBLIC_URL.
  if (url.origin !== new URL(server.ctx.config.publicUrl).origin) return url.href;
  return origin + url.pathname + url.search;
}

/** The receiver's download of one file (or the tar, with no path): status and bytes. */
async function download(server: TestServer, { fx, origin }: SetUp, slug: string, path = '') {
  const grant = await server.app.inject({
    method: 'GET',
    url: `/api/packages/${slug}/download/${path}`,
    headers: fx.receiver.headers,
  });
  expect(grant.statusCode, grant.body).toBe(200);
  const response = await fetch(origin + new URL(grant.json().download_url).pathname);
  const announced = Number(response.headers.get('content-length') ?? -1);
  const chunks: Buffer[] = [];
  let cut = false;
  try {
    for await (const chunk of response.body!) chunks.push(Buffer.from(chunk));
  } catch {
    cut = true;
  }
  const bytes = Buffer.concat(chunks);
  return { status: response.status, bytes, cut: cut || bytes.length !== announced, response };
}

describe('a sent package on the embedded store', () => {
  let server: TestServer;
  let env: SetUp;
  useTestServer(async (t) => {
    ({ server } = t);
    env = await setUp(server);
  });

  it('gives short upload grants, renewed by asking again while uploading', async () => {
    const pkg: SenderPackage = await env.sender.create({
      contract: env.fx.contract.slug,
      name: 'Renewed',
      recipients: [{ id: env.fx.receiver.user.id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
      expected_files: 1,
      expected_size: 10,
      intended_files: [{ filename: 'x.txt', size: 10 }],
    });
    const file = { path: 'x.txt', bytes: fileBytes(10, 1) };
    const first = await env.sender.grants(pkg, [file]);
    const now = Date.now() / 1000;
    for (const expires of [first.tempurl_data.expires, first.bulk_data.file_data[0]!.expires]) {
      expect(expires).toBeGreaterThan(now + 55 * 60);
      expect(expires).toBeLessThanOrEqual(now + 3600 + 5);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await env.sender.grants(pkg, [file]);
    expect(again.tempurl_data.expires).toBeGreaterThan(first.tempurl_data.expires);
    expect(again.tempurl_data.signature).not.toBe(first.tempurl_data.signature);
    // The renewed grant works like the first, and names the file's object as the first did.
    const name = again.bulk_data.file_data[0]!.cleaned_files[0]!.clean_filename;
    expect(name).toBe(first.bulk_data.file_data[0]!.cleaned_files[0]!.clean_filename);
    const put = await fetch(underPrefix(server, env.origin, again, name), {
      method: 'PUT',
      body: fileBytes(10, 2),
    });
    expect(put.status).toBe(201);
  });

  it('refuses every write by grant under the package once it is sent', async () => {
    const { pkg, grants, small, send } = await withGrants(env);
    // While uploading, the engine may overwrite its own objects (a retried segment).
    const retried = await fetch(underPrefix(server, env.origin, grants, 'slabs/1'), {
      method: 'PUT',
      body: fileBytes(10, 3),
    });
    expect(retried.status).toBe(201);

    await send();
    const before = await download(server, env, pkg.slug);
    expect(before.status).toBe(200);

    // The same grants, still valid: overwrite the slab, add an object, FormPost a file again.
    const slabKey = await objectKeyOf(server, pkg.id, 'icons/c.png');
    const slab = slabKey.slice(grants.tempurl_data.object_prefix.length);
    for (const name of [slab, 'slabs/new']) {
      const put = await fetch(underPrefix(server, env.origin, grants, name), {
        method: 'PUT',
        body: fileBytes(5305, 9),
      });
      expect(put.status, name).toBe(403);
    }
    expect((await env.sender.postForm(grants, [small[0]!])).status).toBe(403);
    // A DELETE grant (the server signs none for senders) cannot remove a sealed object either.
    const remove = server.ctx.storage.signTempUrl({
      method: 'DELETE',
      container: grants.tempurl_data.container,
      key: slabKey,
      expires: Math.floor(Date.now() / 1000) + 600,
    });
    const removeUrl = new URL(remove.url);
    expect(
      (await fetch(env.origin + removeUrl.pathname + removeUrl.search, { method: 'DELETE' }))
        .status,
    ).toBe(403);

    // Nor can the sender ask for new grants.
    const renew = await env.sender.call('POST', `/packages/${pkg.slug}/bulk/`, { batches: [] });
    expect(renew).toEqual({ status: 400, body: { detail: [sendMessages.notUploading] } });

    const after = await download(server, env, pkg.slug);
    expect(after.status).toBe(200);
    expect(after.bytes.equals(before.bytes)).toBe(true);
  });
  it('discards a slow PUT that was still arriving when the package was sent', async () => {
    const notes = { path: 'notes.txt', bytes: fileBytes(10, 1) };
    const pkg = await env.sender.createOf([notes], {
      contract: env.fx.contract.slug,
      name: 'Outlived',
      recipients: [{ id: env.fx.receiver.user.id }],
    });
    const grants = await env.sender.grants(pkg, [notes]);
    const entries = await env.sender.formPost(grants, [notes]);
    expect((await env.sender.upload(pkg, 'updatefiles', { files: entries })).status).toBe(200);

    // A PUT over the stored file starts while the package is still uploading (so its start is
    // allowed) and sends its last bytes only once the package is sent.
    const name = entries[0]!.object_path.slice(grants.tempurl_data.object_prefix.length);
    const replacement = fileBytes(10, 77);
    const url = new URL(underPrefix(server, env.origin, grants, name));
    const put = request(url, { method: 'PUT', headers: { 'content-length': '10' } });
    const answered = new Promise<number>((resolve, reject) => {
      put.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      put.on('error', reject);
    });
    put.write(replacement.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect((await env.sender.upload(pkg, 'update', { complete: true })).status).toBe(200);
    put.end(replacement.subarray(5));
    expect(await answered).toBe(403);

    const file = await download(server, env, pkg.slug, 'notes.txt');
    expect(file.status).toBe(200);
    expect(file.bytes).toEqual(notes.bytes);
  });
  it('refuses storage expiry on upload grants, so a sent file cannot vanish', async () => {
    const notes = { path: 'notes.txt', bytes: fileBytes(10, 4) };
    const pkg = await env.sender.createOf([notes], {
      contract: env.fx.contract.slug,
      name: 'Lasting',
      recipients: [{ id: env.fx.receiver.user.id }],
    });
    const grants = await env.sender.grants(pkg, [notes]);
    const batch = grants.bulk_data.file_data[0]!;
    const clean = batch.cleaned_files[0]!.clean_filename;

    for (const [header, value] of [
      ['x-delete-after', '1'],
      ['x-delete-at', String(Math.floor(Date.now() / 1000) + 2)],
    ]) {
      const put = await fetch(underPrefix(server, env.origin, grants, clean), {
        method: 'PUT',
        headers: { [header!]: value! },
        body: notes.bytes,
      });
      expect(put.status, header).toBe(400);
      expect(await put.text()).toContain(header);
    }
    for (const [field, value] of [
      ['x_delete_after', '1'],
      ['x_delete_at', String(Math.floor(Date.now() / 1000) + 2)],
    ]) {
      const form = new FormData();
      form.set('redirect', batch.redirect);
      form.set('max_file_size', String(batch.max_file_size));
      form.set('max_file_count', String(batch.max_file_count));
      form.set('expires', String(batch.expires));
      form.set('signature', batch.sig);
      form.set(field!, value!);
      form.append('file0', new Blob([notes.bytes]), clean);
      const url = new URL(batch.url);
      const posted = await fetch(env.origin + url.pathname + url.search, {
        method: 'POST',
        body: form,
      });
      expect(posted.status, field).toBe(400);
      expect(await posted.text()).toContain(field);
    }

    // Stored without expiry, the file is still there for the recipient later on.
    const entries = await env.sender.formPost(grants, [notes]);
    expect((await env.sender.upload(pkg, 'updatefiles', { files: entries })).status).toBe(200);
    expect((await env.sender.upload(pkg, 'update', { complete: true })).status).toBe(200);
    const file = await download(server, env, pkg.slug, 'notes.txt');
    expect(file.status).toBe(200);
    expect(file.bytes).toEqual(notes.bytes);
  });
});

// Swift has no sealed prefixes: a grant still valid can replace an object after sending. The
// download's If-Match on the recorded etag is what keeps recipients from other bytes.
describeOnSwift('a sent package on OpenStack Swift (SWIFT_AUTH_URL)', (startServer) => {
  let server: TestServer;
  let env: SetUp;
  beforeAll(async () => {
    server = await startServer();
    env = await setUp(server);
  });

  it('fails the download naming a file replaced after sending', async () => {
    const { pkg, grants, small, send } = await withGrants(env);
    await send();
    const notes = small.find((f) => f.path === 'Brief/notes.txt')!;
    // The FormPost grant still valid writes the file's object again (a PUT needs the object
    // listed in a `bulk` call, which a sent package refuses).
    const replaced = await env.sender.postForm(grants, [
      { path: notes.path, bytes: fileBytes(notes.bytes.length, 99) },
    ]);
    expect(replaced.status).toBe(201);

    const file = await download(server, env, pkg.slug, 'Brief/notes.txt');
    expect(file.status).toBe(409);
    expect(JSON.parse(file.bytes.toString()).detail).toContain('Brief/notes.txt');
    const tar = await download(server, env, pkg.slug);
    expect(tar.status === 409 || tar.cut).toBe(true);
    // The other files are untouched and still download.
    expect((await download(server, env, pkg.slug, 'icons/c.png')).bytes).toEqual(
      fileBytes(5000, 5),
    );
  });
});
