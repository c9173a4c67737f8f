import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  contractFixture,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { downloadGrants, downloads, packages } from '../../db/schema';
import {
  addRecipient,
  apartFromMhl,
  createPackage,
  extractWithTar,
  type FixtureFile,
} from './download-fixtures';
import { expectSandboxedAttachment } from '../../../test/sandboxed-bytes';
import { downloadMessages } from './download-messages';

// A sender's own copy of what they sent: the same tar and files a recipient gets, fetched with
// the sender's session, refused to everyone else, and never counted as a recipient's download.

let server: TestServer;
let origin: string;
let fx: ContractFixture;
let sample: Awaited<ReturnType<typeof createPackage>>;

useTestServer(async (t) => {
  ({ server } = t);
  origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  fx = await contractFixture(server);
  sample = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    name: 'Own copy',
  });
  // A recipient, so a recipient's grant route would answer them (and the sender's must not).
  await addRecipient(server, sample.pkg.id, fx.receiver.user);
});

type Headers = Record<string, string>;
interface Grant {
  filename: string;
  download_url: string;
  size: number;
  num_files?: number;
  files?: { path: string; size: number }[];
}

const encoded = (userPath: string) => userPath.split('/').map(encodeURIComponent).join('/');
const askGrant = (headers: Headers, slug: string, userPath = '') =>
  server.app.inject({
    method: 'GET',
    url: `/api/packages/sent/${slug}/download/${encoded(userPath)}`,
    headers,
  });

async function grant(slug: string, userPath = ''): Promise<Grant> {
  const response = await askGrant(fx.sender.headers, slug, userPath);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The grant's URL on the listening test server (PUBLIC_URL names another port). */
const local = (url: string) => origin + new URL(url).pathname;
const fetchAs = (headers: Headers, url: string, init: RequestInit = {}) =>
  fetch(local(url), { ...init, headers: { ...headers, ...(init.headers as Headers) } });

describe("a sender's own copy", () => {
  it('is the whole package as a tar, in ranges joined byte for byte, with the session', async () => {
    const tar = await grant(sample.pkg.slug);
    expect(tar.filename).toBe('Own copy.tar');
    expect(tar.num_files).toBe(sample.files.length);
    // The members the engine unpacks: the sent files, then the package's hash list.
    const members = tar.files?.map((f) => f.path).filter((p) => !p.startsWith('ascmhl/'));
    expect(members?.sort()).toEqual(sample.files.map((f) => f.path).sort());
    expect(tar.download_url).toMatch(/\/api\/packages\/sent\/[^/]+\/tar\/Own%20copy\.tar$/);

    const head = await fetchAs(fx.sender.headers, tar.download_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(tar.size);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(head.headers.get('cache-control')).toBe('private, no-store');
    expectSandboxedAttachment(Object.fromEntries(head.headers), 'application/x-tar');
    const etag = head.headers.get('etag')!;

    const cut = Math.floor(tar.size / 3);
    const parts: Buffer[] = [];
    for (const [start, end] of [
      [0, cut],
      [cut, tar.size],
    ] as const) {
      const response = await fetchAs(fx.sender.headers, tar.download_url, {
        headers: { range: `bytes=${start}-${end - 1}`, 'if-range': etag },
      });
      expect(response.status).toBe(206);
      parts.push(Buffer.from(await response.arrayBuffer()));
    }
    const { files } = apartFromMhl(extractWithTar(Buffer.concat(parts)));
    for (const file of sample.files) {
      expect(files.get(file.path)?.equals(file.bytes), file.path).toBe(true);
    }

    // An If-Range naming other bytes gets the whole tar, never a mix.
    const stale = await fetchAs(fx.sender.headers, tar.download_url, {
      headers: { range: 'bytes=0-9', 'if-range': '"0123456789abcdef0123456789abcdef"' },
    });
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.get('content-length'))).toBe(tar.size);
    await stale.body?.cancel();
  });

  it('is each file by its path: an own object, a slab member and a Unicode name', async () => {
    const wanted = ['readme.txt', 'docs/b.bin', 'docs/ünïcode — naïve.txt', 'big/video.bin'];
    for (const path of wanted) {
      const sent = sample.files.find((f: FixtureFile) => f.path === path)!;
      const file = await grant(sample.pkg.slug, path);
      expect(file.filename).toBe(path.slice(path.lastIndexOf('/') + 1));
      expect(file.size).toBe(sent.bytes.length);
      const response = await fetchAs(fx.sender.headers, file.download_url);
      expect(response.status, path).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(sent.bytes), path).toBe(true);
    }
  });

  it('records no download: the history is the recipients’', async () => {
    const tar = await grant(sample.pkg.slug);
    const response = await fetchAs(fx.sender.headers, tar.download_url);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    // Give a record the time it would take to be written after the response.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const grants = await server.ctx.db
      .select()
      .from(downloadGrants)
      .where(eq(downloadGrants.packageId, sample.pkg.id));
    expect(grants).toEqual([]);
    expect(await server.ctx.db.select().from(downloads)).toEqual([]);
  });

  it('is refused to anyone but the sender, on the grant and on the bytes', async () => {
    const tar = await grant(sample.pkg.slug);
    const file = await grant(sample.pkg.slug, 'readme.txt');
    // A recipient and a member who did not send it: 404, as Sent answers them.
    for (const headers of [fx.receiver.headers, fx.outsider.headers]) {
      expect((await askGrant(headers, sample.pkg.slug)).statusCode).toBe(404);
      expect((await askGrant(headers, sample.pkg.slug, 'readme.txt')).statusCode).toBe(404);
      for (const url of [tar.download_url, file.download_url]) {
        expect((await fetchAs(headers, url)).status, url).toBe(404);
      }
    }
    // No session: the URL alone is no credential.
    expect((await askGrant({}, sample.pkg.slug)).statusCode).toBe(401);
    for (const url of [tar.download_url, file.download_url]) {
      expect((await fetch(local(url))).status).toBe(401);
    }
    // A path the package does not hold, and one that is no package path at all.
    expect((await askGrant(fx.sender.headers, sample.pkg.slug, 'nope.txt')).statusCode).toBe(404);
    const escape = await fetchAs(
      fx.sender.headers,
      `${origin}/api/packages/sent/${sample.pkg.slug}/file/..%2F..%2Fetc%2Fpasswd`,
    );
    expect(escape.status).toBe(404);
  });

  it('ends when the package expires (410), and is not there while it uploads (404)', async () => {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: 'one',
    });
    const tar = await grant(pkg.slug);
    await server.ctx.db
      .update(packages)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(packages.id, pkg.id));
    const refused = await askGrant(fx.sender.headers, pkg.slug);
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toEqual({ detail: downloadMessages.expired });
    expect((await fetchAs(fx.sender.headers, tar.download_url)).status).toBe(410);

    const uploading = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: 'one',
      status: 'uploading',
    });
    expect((await askGrant(fx.sender.headers, uploading.pkg.slug)).statusCode).toBe(404);
  });
});
