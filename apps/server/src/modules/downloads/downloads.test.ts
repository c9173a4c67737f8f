import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contractFixture,
  createUser,
  login,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { downloads, packageRecipients } from '../../db/schema';
import {
  addRecipient,
  apartFromMhl,
  createPackage,
  eventually,
  extractWithTar,
  watchContract,
  type FixtureFile,
} from './download-fixtures';
import { downloadsOfRecipients } from './downloads.repository';
import { expectSandboxed, expectSandboxedAttachment } from '../../../test/sandboxed-bytes';

let server: TestServer;
let origin: string;
let fx: ContractFixture;
let sample: Awaited<ReturnType<typeof createPackage>>;
const WATCHER = 'download-watch@example.com';
const NAME = 'Q3/Q4 Résultats';

useTestServer(async (t) => {
  ({ server } = t);
  origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  fx = await contractFixture(server);
  await watchContract(server, fx.contract.id, WATCHER);
  sample = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    name: NAME,
  });
});

type Headers = Record<string, string>;
interface Grant {
  filename: string;
  download_url: string;
  size: number;
  num_files?: number;
}

async function grant(headers: Headers, slug: string, userPath = ''): Promise<Grant> {
  const encoded = userPath.split('/').map(encodeURIComponent).join('/');
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/packages/${slug}/download/${encoded}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The grant's URL on the listening test server (PUBLIC_URL names another port). */
const local = (url: string) => origin + new URL(url).pathname;

async function fetchRange(url: string, start: number, end: number): Promise<Buffer> {
  const response = await fetch(local(url), { headers: { range: `bytes=${start}-${end - 1}` } });
  expect(response.status).toBe(206);
  expect(response.headers.get('content-range')).toMatch(new RegExp(`^bytes ${start}-${end - 1}/`));
  return Buffer.from(await response.arrayBuffer());
}

/** The package's files, and after them the hash list and its chain the server writes. */
function expectFiles(extracted: Map<string, Buffer>, files: readonly FixtureFile[]) {
  const { files: found, mhl } = apartFromMhl(extracted);
  expect([...found.keys()].sort()).toEqual(files.map((f) => f.path).sort());
  expect([...mhl.keys()].sort()).toEqual([
    expect.stringMatching(/^ascmhl\/0001_Q3_Q4 Résultats_\d{4}-\d\d-\d\d_\d{6}Z\.mhl$/),
    'ascmhl/ascmhl_chain.xml',
  ]);
  for (const file of files) expect(found.get(file.path)?.equals(file.bytes), file.path).toBe(true);
}

async function recipientOf(user: { id: number; email: string }) {
  const row = await addRecipient(server, sample.pkg.id, user);
  return { row, headers: await login(server, user.email) };
}

const downloadedOf = async (recipientId: number) =>
  (
    await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.id, recipientId))
  )[0]!.downloaded;
/** The recipient's downloads, oldest first. */
const downloadsOf = (recipientId: number) =>
  server.ctx.db
    .select()
    .from(downloads)
    .where(eq(downloads.recipientId, recipientId))
    .orderBy(asc(downloads.id));
const mailsAbout = async (name: string) =>
  (await server.mails()).filter(
    (m) => JSON.stringify(m.to).includes(WATCHER) && m.subject === `Package downloaded: ${name}`,
  );

/** Seven ranges of odd sizes covering [0, size). */
function sevenRanges(size: number): [number, number][] {
  const cuts = [0, 1, 513, 1500, Math.floor(size * 0.3) | 1, Math.floor(size * 0.55) | 1];
  cuts.push(Math.floor(size * 0.8) | 1, size);
  return cuts.slice(0, -1).map((start, i) => [start, cuts[i + 1]!]);
}

describe('the whole package as a tar', () => {
  let recipient: Awaited<ReturnType<typeof recipientOf>>;
  let tar: Grant;
  beforeAll(async () => {
    recipient = await recipientOf(fx.receiver.user);
  });

  it('grants a URL, the tar size and the file count to a recipient', async () => {
    tar = await grant(recipient.headers, sample.pkg.slug);
    expect(tar.filename).toBe('Q3_Q4 Résultats.tar');
    expect(tar.num_files).toBe(sample.files.length);
    expect(tar.download_url).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:8080/api/downloads/[\\w-]{43}/Q3_Q4%20R%C3%A9sultats\\.tar$`,
      ),
    );
    const stored = sample.files.reduce((sum, f) => sum + f.bytes.length, 0);
    expect(tar.size).toBeGreaterThan(stored);
  });

  it('answers HEAD with the size and the download headers, and records nothing', async () => {
    const response = await fetch(local(tar.download_url), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(tar.size);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('application/x-tar');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Q3_Q4 R_sultats.tar"; filename*=UTF-8''Q3_Q4%20R%C3%A9sultats.tar`,
    );
    expect(await downloadsOf(recipient.row.id)).toEqual([]);
  });

  it('serves concurrent ranged chunks that join into the package, recorded complete once', async () => {
    const parts = await Promise.all(
      sevenRanges(tar.size).map(([start, end]) => fetchRange(tar.download_url, start, end)),
    );
    expectFiles(extractWithTar(Buffer.concat(parts)), sample.files);

    const [record] = await eventually(
      () => downloadsOf(recipient.row.id),
      (rows) => rows[0]?.bytesSent === tar.size,
    );
    expect(record!.completedAt).not.toBeNull();
    expect(await downloadedOf(recipient.row.id)).toBe('complete');
    const history = (await downloadsOfRecipients(server.ctx.db, [recipient.row.id])).get(
      recipient.row.id,
    );
    expect(history).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', bytes: tar.size, is_partial: false }),
    ]);

    const mail = await server.waitForMail((m) => m.subject === `Package downloaded: ${NAME}`);
    expect(mail.text).toContain('Test User downloaded it.');
    await server.outbox.drain();
    expect(await mailsAbout(NAME)).toHaveLength(1);
  });

  it('serves the whole tar to a plain GET, without telling the watchers again', async () => {
    const response = await fetch(local(tar.download_url));
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(tar.size);
    expectFiles(extractWithTar(Buffer.from(await response.arrayBuffer())), sample.files);
    // The same URL fetched again is a download of its own, not more bytes of the first.
    const rows = await eventually(
      () => downloadsOf(recipient.row.id),
      (rows) => rows.length === 2,
    );
    expect(rows.map((r) => [r.bytesSent, r.completedAt !== null])).toEqual([
      [tar.size, true],
      [tar.size, true],
    ]);
    await server.outbox.drain();
    expect(await mailsAbout(NAME)).toHaveLength(1);
  });

  it('lists a later ranged request as its own download, with its own bytes and duration', async () => {
    const other = await recipientOf(await createUser(server));
    const url = (await grant(other.headers, sample.pkg.slug)).download_url;
    const whole = await fetch(local(url));
    expect(Buffer.from(await whole.arrayBuffer()).length).toBe(tar.size);
    await eventually(
      () => downloadsOf(other.row.id),
      (rows) => rows[0]?.completedAt != null,
    );
    // Some time later, one range of the same URL (a download manager checking a part, say).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetchRange(url, 1000, 1000 + 4096)).length).toBe(4096);
    await eventually(
      () => downloadsOf(other.row.id),
      (rows) => rows.length === 2,
    );
    const history = (await downloadsOfRecipients(server.ctx.db, [other.row.id])).get(other.row.id)!;
    expect(history).toEqual([
      expect.objectContaining({ bytes: tar.size, is_partial: false }),
      expect.objectContaining({ bytes: 4096, is_partial: true }),
    ]);
    // Neither spans the other: the first ended before the range was asked for.
    expect(history[0]!.duration).toBeLessThan(1);
    expect(history[1]!.duration).toBeLessThan(1);
    expect(Date.parse(history[1]!.min_ts)).toBeGreaterThanOrEqual(
      Date.parse(history[0]!.timestamp) + 1000,
    );
    // The recipient stays complete: the first download delivered every byte.
    expect(await downloadedOf(other.row.id)).toBe('complete');
  });

  it('keeps a cut-off download and its resume as one download', async () => {
    const other = await recipientOf(await createUser(server));
    const url = (await grant(other.headers, sample.pkg.slug)).download_url;
    const half = Math.floor(tar.size / 2);
    const first = await fetchRange(url, 0, half);
    const rest = await fetchRange(url, half, tar.size);
    expectFiles(extractWithTar(Buffer.concat([first, rest])), sample.files);
    const rows = await eventually(
      () => downloadsOf(other.row.id),
      (rows) => rows[0]?.completedAt != null,
    );
    expect(rows.map((r) => r.bytesSent)).toEqual([tar.size]);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await fetch(local(tar.download_url), {
      headers: { range: `bytes=${tar.size}-` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${tar.size}`);
  });

  it('leaves a recipient who fetched half the chunks partial', async () => {
    const other = await recipientOf(await createUser(server));
    const half = await grant(other.headers, sample.pkg.slug);
    const ranges = sevenRanges(half.size).slice(0, 4);
    await Promise.all(ranges.map(([start, end]) => fetchRange(half.download_url, start, end)));
    const sent = ranges.reduce((sum, [start, end]) => sum + end - start, 0);
    const [record] = await eventually(
      () => downloadsOf(other.row.id),
      (rows) => rows[0]?.bytesSent === sent,
    );
    expect(record!.completedAt).toBeNull();
    expect(await downloadedOf(other.row.id)).toBe('partial');
    const history = await downloadsOfRecipients(server.ctx.db, [other.row.id]);
    expect(history.get(other.row.id)).toEqual([expect.objectContaining({ is_partial: true })]);
  });
});

describe('one file', () => {
  let headers: Headers;
  let recipientId: number;
  beforeAll(async () => {
    const recipient = await recipientOf(await createUser(server));
    headers = recipient.headers;
    recipientId = recipient.row.id;
  });
  const bytesOf = (path: string) => sample.files.find((f) => f.path === path)!.bytes;

  it('serves exactly the bytes of an own object, a slab-packed file and a manifest', async () => {
    for (const path of ['readme.txt', 'docs/b.bin', 'docs/ünïcode — naïve.txt', 'big/video.bin']) {
      const file = await grant(headers, sample.pkg.slug, path);
      expect(file.filename).toBe(path.slice(path.lastIndexOf('/') + 1));
      expect(file.size).toBe(bytesOf(path).length);
      const response = await fetch(local(file.download_url));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(Buffer.from(await response.arrayBuffer()).equals(bytesOf(path)), path).toBe(true);
    }
    const empty = await grant(headers, sample.pkg.slug, 'empty.txt');
    expect(empty.size).toBe(0);
    expect((await fetch(local(empty.download_url))).status).toBe(200);
  });

  it('serves a range inside a slab-packed file and across manifest segments', async () => {
    const slabbed = await grant(headers, sample.pkg.slug, 'docs/a.txt');
    expect(await fetchRange(slabbed.download_url, 100, 300)).toEqual(
      bytesOf('docs/a.txt').subarray(100, 300),
    );
    const large = await grant(headers, sample.pkg.slug, 'big/video.bin');
    expect(await fetchRange(large.download_url, 399_990, 400_010)).toEqual(
      bytesOf('big/video.bin').subarray(399_990, 400_010),
    );
  });

  it('names a non-ASCII file in the RFC 5987 form', async () => {
    const file = await grant(headers, sample.pkg.slug, 'docs/ünïcode — naïve.txt');
    const response = await fetch(local(file.download_url), { method: 'HEAD' });
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="_n_code _ na_ve.txt"; filename*=UTF-8''%C3%BCn%C3%AFcode%20%E2%80%94%20na%C3%AFve.txt`,
    );
  });

  it('counts a file of a package of many as a partial download', async () => {
    await eventually(
      () => downloadedOf(recipientId),
      (state) => state !== 'none',
    );
    expect(await downloadedOf(recipientId)).toBe('partial');
  });

  it('counts the only file of a package as the whole package', async () => {
    const single = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name: 'Just one',
      files: 'one',
    });
    const row = await addRecipient(server, single.pkg.id, fx.receiver.user);
    const file = await grant(fx.receiver.headers, single.pkg.slug, 'only.bin');
    const response = await fetch(local(file.download_url));
    expect(Buffer.from(await response.arrayBuffer()).equals(single.files[0]!.bytes)).toBe(true);
    expect(
      await eventually(
        () => downloadedOf(row.id),
        (s) => s === 'complete',
      ),
    ).toBe('complete');
    await server.waitForMail((m) => m.subject === 'Package downloaded: Just one');
  });
});

describe('every download answer', () => {
  it('is a sandboxed attachment no browser renders, errors too (bytes a user chose)', async () => {
    const { headers } = await recipientOf(await createUser(server));
    const tar = await grant(headers, sample.pkg.slug);
    const file = await grant(headers, sample.pkg.slug, 'readme.txt');
    const path = (url: string) => new URL(url).pathname;
    for (const [url, type] of [
      [tar.download_url, 'application/x-tar'],
      [file.download_url, 'application/octet-stream'],
    ] as const) {
      for (const range of [undefined, 'bytes=0-9']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const answer = await server.app.inject({
            method,
            url: path(url),
            headers: range ? { range } : {},
          });
          expect(answer.statusCode).toBe(range ? 206 : 200);
          expectSandboxedAttachment(answer.headers, type);
        }
      }
      const unsatisfiable = await server.app.inject({
        method: 'GET',
        url: path(url),
        headers: { range: 'bytes=999999999-' },
      });
      expect(unsatisfiable.statusCode).toBe(416);
      expectSandboxed(unsatisfiable.headers);
    }
    const unknown = await server.app.inject({
      method: 'GET',
      url: `/api/downloads/${'x'.repeat(43)}/index.html`,
    });
    expect(unknown.statusCode).toBe(404);
    expectSandboxed(unknown.headers);
  });
});
