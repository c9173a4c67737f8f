import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { xxhash128 } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageDownloadGrant, SenderPackage } from '@filerunner/protocol';
import { layoutTar, piecesForRange } from '@filerunner/transfer';
import { useTestServer, type ContractFixture, type TestServer } from '../../../test/harness';
import { expectSandboxed } from '../../../test/sandboxed-bytes';
import { fileBytes, listeningSender, type TestFile } from '../../../test/uploader';
import { packages } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import {
  addRecipient,
  apartFromMhl,
  createPackage,
  extractWithTar,
} from '../downloads/download-fixtures';
import { c4Id } from './c4';
import { mhlDate } from './hash-list';
import { checkChain, checkHashList, xsdComplaint, xxhsum } from './mhl-schema';

// A package's ASC MHL as its recipients get it: from the route and inside the tar, for files
// sent through the real upload calls, whose hashes Debian's xxhsum confirms.

let server: TestServer;
let origin: string;
let fx: ContractFixture;
let sent: SenderPackage;

/** Every kind of file a frame-sequence delivery holds, and every kind of upload. */
const slabbed: TestFile[] = [
  { path: 'frames/A001_0001.exr', bytes: fileBytes(700, 11) },
  { path: 'frames/A001_0002.exr', bytes: fileBytes(0, 12) },
  { path: 'frames/A001_0003.exr', bytes: fileBytes(513, 13) },
];
const files: TestFile[] = [
  { path: 'Zürich/Präsentation — naïve 日本.pdf', bytes: fileBytes(1500, 1) },
  { path: `a/b/c/d/e/f/g/h/i/${'deep'.repeat(30)}/frame.dpx`, bytes: fileBytes(4000, 2) },
  { path: 'empty.txt', bytes: Buffer.alloc(0) },
  // Past the test engine's large-file size: segments joined by a manifest.
  { path: 'video/cut.mov', bytes: Buffer.concat([fileBytes(140_000, 3), fileBytes(999, 4)]) },
  ...slabbed,
];

useTestServer(async (t) => {
  ({ server } = t);
  const made = await listeningSender(server, 'MHL senders');
  ({ origin, fx } = made);
  sent = await made.sender.createOf(files, {
    contract: fx.contract.slug,
    name: 'Reel 3: Grade',
    recipients: [{ id: fx.receiver.user.id }],
  });
  await made.sender.send(files, { pkg: sent }, { slabbed });
});

const get = (url: string, headers?: Record<string, string>) =>
  server.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });

/** The sent files written to a folder, as a recipient would have them on disk. */
let onDisk: string;
beforeAll(() => {
  onDisk = mkdtempSync(path.join(tmpdir(), 'mhl-sent-'));
  for (const file of files) {
    mkdirSync(path.join(onDisk, path.dirname(file.path)), { recursive: true });
    writeFileSync(path.join(onDisk, file.path), file.bytes);
  }
});
afterAll(() => rmSync(onDisk, { recursive: true, force: true }));

describe('the ASC MHL of a sent package', () => {
  let body: Buffer;

  it("answers the recipient an ASC MHL v2 hash list of every file, each with xxhsum's hash", async () => {
    const response = await get(`/api/packages/${sent.slug}/mhl/`, fx.receiver.headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['x-filerunner-unhashed-files']).toBe('0');
    expectSandboxed(response.headers);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="0001_Reel 3: Grade_\d{4}-\d\d-\d\d_\d{6}Z\.mhl"$/,
    );
    body = response.rawPayload;

    expect(xsdComplaint(body, 'ASCMHL.xsd')).toBe('');
    const list = checkHashList(body);
    expect(list.process).toBe('transfer');
    // The public address's host (PUBLIC_URL), the same on every node.
    expect(list.hostname).toBe(new URL(server.ctx.config.publicUrl).hostname);
    const [row] = await server.ctx.db.select().from(packages).where(eq(packages.slug, sent.slug));
    expect(list.creationdate).toBe(mhlDate(row!.sentAt));

    const sums = xxhsum(
      onDisk,
      files.map((f) => f.path),
    );
    expect(list.files.map((f) => f.path).sort()).toEqual(files.map((f) => f.path).sort());
    for (const file of files) {
      const listed = list.files.find((f) => f.path === file.path)!;
      expect(listed.size, file.path).toBe(file.bytes.length);
      expect(listed.xxh128, file.path).toBe(sums.get(file.path));
      expect(listed.action).toBe('original');
      expect(listed.hashdate).toBe(list.creationdate);
    }
  });

  it('gives the sender the same bytes, every time', async () => {
    const again = await get(`/api/packages/${sent.slug}/mhl/`, fx.sender.headers);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(body)).toBe(true);
  });

  it('is 404 to a user who neither sent nor received it, and 401 to no one', async () => {
    expect((await get(`/api/packages/${sent.slug}/mhl/`, fx.outsider.headers)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/packages/${sent.slug}/mhl/`)).statusCode).toBe(401);
  });

  it("ends the tar as ascmhl/, the same list and a chain naming it by its C4 ID, as the grant's last members", async () => {
    const response = await get(`/api/packages/${sent.slug}/download/`, fx.receiver.headers);
    expect(response.statusCode, response.body).toBe(200);
    const grant = response.json<PackageDownloadGrant>();
    const url = origin + new URL(grant.download_url).pathname;
    const tar = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(tar.length).toBe(grant.size);
    const { files: found, mhl } = apartFromMhl(extractWithTar(tar));
    expect(found.size).toBe(files.length);

    const name = /filename="(.*)"/.exec(
      (await get(`/api/packages/${sent.slug}/mhl/`, fx.receiver.headers)).headers[
        'content-disposition'
      ] as string,
    )![1]!;
    expect([...mhl.keys()].sort()).toEqual([`ascmhl/${name}`, 'ascmhl/ascmhl_chain.xml']);
    expect(mhl.get(`ascmhl/${name}`)!.equals(body)).toBe(true);
    const chain = mhl.get('ascmhl/ascmhl_chain.xml')!;
    expect(xsdComplaint(chain, 'ASCMHLDirectory.xsd')).toBe('');
    expect(checkChain(chain)).toEqual([{ sequence: 1, path: name, c4: c4Id(body) }]);

    // The grant lists them last, with sizes and hashes a download engine can check.
    expect(grant.num_files).toBe(files.length);
    const last = grant.files.slice(-2);
    expect(last.map((m) => m.path)).toEqual([`ascmhl/${name}`, 'ascmhl/ascmhl_chain.xml']);
    const sums = xxhsum(
      mkdtempFor(mhl),
      [...mhl.keys()].map((p) => p.slice('ascmhl/'.length)),
    );
    for (const member of last) {
      const bytes = mhl.get(member.path)!;
      expect(member.size).toBe(bytes.length);
      expect(member.xxh128).toBe(sums.get(member.path.slice('ascmhl/'.length)));
    }

    // A download engine that lays the tar out from the grant alone places every byte right.
    const layout = layoutTar(grant.files.map((m) => ({ ...m, mtime: grant.mtime })));
    expect(layout.size).toBe(grant.size);
    const byPath = new Map([...found, ...mhl]);
    const rebuilt = piecesForRange(layout, { offset: 0, length: layout.size }).map((piece) =>
      piece.kind === 'bytes'
        ? piece.data
        : byPath
            .get(grant.files[piece.entry]!.path)!
            .subarray(piece.offset, piece.offset + piece.length),
    );
    expect(Buffer.concat(rebuilt).equals(tar)).toBe(true);

    // A range that holds only the tail (the server's own members) is the whole tar's tail.
    const from = grant.size - 4096;
    const tail = await fetch(url, { headers: { range: `bytes=${from}-` } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(tar.subarray(from))).toBe(true);
  });
});

/** Writes the extracted ascmhl members to a folder of their own, for xxhsum. */
const scratch: string[] = [];
function mkdtempFor(members: Map<string, Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mhl-members-'));
  scratch.push(dir);
  for (const [member, bytes] of members) {
    writeFileSync(path.join(dir, member.slice('ascmhl/'.length)), bytes);
  }
  return dir;
}
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the ASC MHL by an external link', () => {
  let slug: string;
  let key: string;
  const hashed = [
    { path: 'one.bin', bytes: fileBytes(5000, 21) },
    { path: 'two.bin', bytes: fileBytes(10, 22) },
    { path: 'three.bin', bytes: fileBytes(30, 23) },
  ];

  beforeAll(async () => {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name: 'By link',
      files: hashed,
      // As an older engine leaves it: no hash recorded for one file.
      xxh128: (file) => (file.path === 'two.bin' ? null : xxhash128(file.bytes)),
    });
    key = newToken();
    await addRecipient(server, pkg.id, fx.receiver.user, { keyHash: tokenHash(key) });
    slug = pkg.slug;
  });

  const external = (query: string) => get(`/api/packages/external/${slug}/mhl/${query}`);

  it('answers the holder of the key, leaving out and counting the file without a hash', async () => {
    const response = await external(`?key=${encodeURIComponent(key)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-filerunner-unhashed-files']).toBe('1');
    expect(response.body).toContain('<!-- 1 file not listed: no xxh128 was recorded at upload -->');
    expect(xsdComplaint(response.rawPayload, 'ASCMHL.xsd')).toBe('');
    const list = checkHashList(response.rawPayload);
    expect(list.files.map((f) => [f.path, f.xxh128])).toEqual([
      ['one.bin', await xxhash128(hashed[0]!.bytes)],
      ['three.bin', await xxhash128(hashed[2]!.bytes)],
    ]);
  });

  it('is 404 with a wrong key and 400 without one', async () => {
    const wrong = await external(`?key=${newToken()}`);
    expect(wrong.statusCode).toBe(404);
    expect((await external('')).statusCode).toBe(400);
  });
});

describe('a package with an ascmhl folder of its own', () => {
  it('keeps its own folder in the tar; the route still answers the list', async () => {
    const own = [
      { path: 'clip.mov', bytes: fileBytes(300, 31) },
      { path: 'ASCMHL/ascmhl_chain.xml', bytes: Buffer.from('<ascmhldirectory/>') },
    ];
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: own,
      xxh128: (file) => xxhash128(file.bytes),
    });
    await addRecipient(server, pkg.id, fx.receiver.user);
    const response = await get(`/api/packages/${pkg.slug}/download/`, fx.receiver.headers);
    const grant = response.json<PackageDownloadGrant>();
    expect(grant.files.map((f) => f.path)).toEqual(['ASCMHL/ascmhl_chain.xml', 'clip.mov']);
    const tar = Buffer.from(
      await (await fetch(origin + new URL(grant.download_url).pathname)).arrayBuffer(),
    );
    expect([...extractWithTar(tar).keys()].sort()).toEqual(['ASCMHL/ascmhl_chain.xml', 'clip.mov']);
    const list = await get(`/api/packages/${pkg.slug}/mhl/`, fx.receiver.headers);
    expect(list.statusCode).toBe(200);
    expect(checkHashList(list.rawPayload).files.map((f) => f.path)).toEqual([
      'ASCMHL/ascmhl_chain.xml',
      'clip.mov',
    ]);
  });
});
