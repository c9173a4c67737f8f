import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import {
  contractFixture,
  startTestServer,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import {
  downloadGrants,
  downloads,
  packageFiles,
  packageRecipients,
  packages,
} from '../../db/schema';
import { addRecipient, createPackage } from './download-fixtures';
import { deliveryOf } from '../receipts/receipts.repository';
import { parseServedRanges } from '../receipts/tar-coverage';
import { downloadMessages } from './download-messages';

let server: TestServer;
let origin: string;
let fx: ContractFixture;
const HOUR = 3_600_000;

useTestServer(async (t) => {
  ({ server } = t);
  origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  fx = await contractFixture(server);
});

/** A one-file package with the receiver as recipient, adjusted by the case. */
async function packageFor(
  options: {
    status?: 'uploading' | 'complete' | 'force_completed';
    expiresInHours?: number;
  } = {},
  recipientFields: Partial<typeof packageRecipients.$inferInsert> = {},
) {
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    ...options,
  });
  const recipient = await addRecipient(server, pkg.id, fx.receiver.user, recipientFields);
  return { pkg, recipient };
}

const grant = (slug: string, headers: Record<string, string> = fx.receiver.headers, path = '') =>
  server.app.inject({ method: 'GET', url: `/api/packages/${slug}/download/${path}`, headers });
const fetchUrl = (url: string, method: 'GET' | 'HEAD' = 'GET') =>
  server.app.inject({ method, url: new URL(url).pathname });

function expectRefusal(
  response: Awaited<ReturnType<typeof grant>>,
  status: number,
  detail?: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  if (detail && response.body) expect(response.json()).toEqual({ detail });
}

describe('asking for a download', () => {
  it('needs a login', async () => {
    const { pkg } = await packageFor();
    expectRefusal(await grant(pkg.slug, {}), 401);
  });

  it('is 404 to a non-recipient, for an unknown slug and while the package uploads', async () => {
    const { pkg } = await packageFor();
    expectRefusal(await grant(pkg.slug, fx.outsider.headers), 404, downloadMessages.notFound);
    expectRefusal(await grant(pkg.slug, fx.sender.headers), 404, downloadMessages.notFound);
    expectRefusal(await grant('no-such-package'), 404, downloadMessages.notFound);
    const uploading = await packageFor({ status: 'uploading' });
    expectRefusal(await grant(uploading.pkg.slug), 404, downloadMessages.notFound);
  });

  it('is 404 before the access period starts', async () => {
    const { pkg } = await packageFor();
    await server.ctx.db
      .update(packages)
      .set({ validFrom: new Date(Date.now() + HOUR) })
      .where(eq(packages.id, pkg.id));
    expectRefusal(await grant(pkg.slug), 404, downloadMessages.notFound);
  });

  it('is 403 to a removed recipient and 410 once the package expired', async () => {
    const removed = await packageFor({}, { removed: true });
    expectRefusal(await grant(removed.pkg.slug), 403, downloadMessages.removed);
    const expired = await packageFor({ expiresInHours: -1 });
    expectRefusal(await grant(expired.pkg.slug), 410, downloadMessages.expired);
  });

  it('is 403 while a PIN is to be verified, and allowed after', async () => {
    const { pkg, recipient } = await packageFor({}, { pinRequired: true, mobile: '+447700900123' });
    expectRefusal(await grant(pkg.slug), 403, downloadMessages.locked);
    expectRefusal(await grant(pkg.slug, fx.receiver.headers, 'only.bin'), 403);
    await server.ctx.db
      .update(packageRecipients)
      .set({ pinVerifiedAt: new Date() })
      .where(eq(packageRecipients.id, recipient.id));
    expect((await grant(pkg.slug)).statusCode).toBe(200);
  });

  it('is 404 for a file the package does not have', async () => {
    const { pkg } = await packageFor();
    expectRefusal(await grant(pkg.slug, fx.receiver.headers, 'other.bin'), 404);
    expectRefusal(await grant(pkg.slug, fx.receiver.headers, 'a%2F..%2Fonly.bin'), 404);
    expect((await grant(pkg.slug, fx.receiver.headers, 'only.bin/')).statusCode).toBe(200);
  });
});

describe('using a download URL', () => {
  async function granted() {
    const made = await packageFor();
    const response = await grant(made.pkg.slug);
    expect(response.statusCode).toBe(200);
    return { ...made, url: response.json().download_url as string };
  }

  it('works without a session', async () => {
    const { url } = await granted();
    const response = await fetchUrl(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-tar');
  });

  it('is 404 for an unknown or expired token', async () => {
    const { url, recipient } = await granted();
    const unknown = url.replace(/downloads\/[^/]+/, 'downloads/not-a-token');
    expectRefusal(await fetchUrl(unknown), 404, downloadMessages.notFound);
    expectRefusal(await fetchUrl(unknown, 'HEAD'), 404);
    await server.ctx.db
      .update(downloadGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(downloadGrants.recipientId, recipient.id));
    expectRefusal(await fetchUrl(url), 404, downloadMessages.notFound);
  });

  it('is 410 when the package expired since', async () => {
    const { url, pkg } = await granted();
    await server.ctx.db
      .update(packages)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(packages.id, pkg.id));
    expectRefusal(await fetchUrl(url), 410, downloadMessages.expired);
    expectRefusal(await fetchUrl(url, 'HEAD'), 410);
  });

  it('is 403 when the recipient was removed since', async () => {
    const { url, recipient } = await granted();
    await server.ctx.db
      .update(packageRecipients)
      .set({ removed: true })
      .where(eq(packageRecipients.id, recipient.id));
    expectRefusal(await fetchUrl(url), 403, downloadMessages.removed);
  });

  it('records nothing for a refused request', async () => {
    const { url, recipient } = await granted();
    await server.ctx.db
      .update(packageRecipients)
      .set({ removed: true })
      .where(eq(packageRecipients.id, recipient.id));
    await fetchUrl(url);
    const rows = await server.ctx.db
      .select()
      .from(downloads)
      .where(eq(downloads.recipientId, recipient.id));
    expect(rows).toEqual([]);
    const [after] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.id, recipient.id));
    expect(after!.downloaded).toBe('none');
  });
});

describe('when storage fails', () => {
  /** A granted URL (the tar, or `path`) of a package one of whose objects has gone from storage. */
  async function brokenDownload(
    options: { path?: string; sample?: boolean; missing?: string } = {},
  ) {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: options.sample ? 'sample' : 'one',
    });
    const recipient = await addRecipient(server, pkg.id, fx.receiver.user);
    const [file] = await server.ctx.db
      .select()
      .from(packageFiles)
      .where(
        and(
          eq(packageFiles.packageId, pkg.id),
          eq(packageFiles.userPath, options.missing ?? 'only.bin'),
        ),
      );
    const response = await grant(pkg.slug, fx.receiver.headers, options.path ?? '');
    await server.ctx.storage.deleteObject({ container: pkg.container, key: file!.objectKey! });
    return { recipient, url: origin + new URL(response.json().download_url as string).pathname };
  }
  /** The recipient's download, if any byte went out. */
  const recorded = async (recipientId: number) => {
    // A download is recorded when its connection closes, after the response: wait for that work.
    await server.ctx.pendingWork.settled();
    const [row] = await server.ctx.db
      .select()
      .from(downloads)
      .where(eq(downloads.recipientId, recipientId));
    return row;
  };

  it('cuts the tar short mid-stream and records no completion', async () => {
    // The tar's first entry (big/video.bin, 900 KB) streams out before readme.txt is reached.
    const { recipient, url } = await brokenDownload({ sample: true, missing: 'readme.txt' });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    // The headers went out before the object was reached: the client sees a truncated body.
    await expect(response.arrayBuffer()).rejects.toThrow();
    const row = await recorded(recipient.id);
    expect(row!.bytesSent).toBeGreaterThan(0);
    expect(row!.completedAt).toBeNull();
    // What went out before the cut is the tar's first bytes: its served prefix, never more.
    expect(parseServedRanges(row!.servedRanges)).toEqual([[0, row!.bytesSent]]);
  });

  /**
   * A 32 MiB package for the receiver, its tar granted, fetched and cut a few MiB in (the page
   * closes): answers the grant and how many bytes the client read.
   */
  async function cutLargeDownload() {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: 'large',
    });
    const recipient = await addRecipient(server, pkg.id, fx.receiver.user);
    const first = (await grant(pkg.slug)).json() as { download_url: string; size: number };
    const reader = (await fetch(origin + new URL(first.download_url).pathname)).body!.getReader();
    let received = 0;
    while (received < 4 << 20) received += (await reader.read()).value!.byteLength;
    await reader.cancel();
    return { pkg, recipient, first, received };
  }

  it('counts the prefix a cut-off response handed over, so a resume on a new grant completes it', async () => {
    const { pkg, recipient, first, received } = await cutLargeDownload();
    const cut = await recorded(recipient.id);
    const [[start, end]] = parseServedRanges(cut!.servedRanges) as [[number, number]];
    expect(start).toBe(0);
    // At least what the client read, at most what the server produced; short of the whole.
    expect(end).toBeGreaterThanOrEqual(received);
    expect(end).toBe(cut!.bytesSent);
    expect(end).toBeLessThan(first.size);
    expect((await deliveryOf(server.ctx.db, recipient.id, first.size)).served).toEqual([[0, end]]);

    // The resume, on a new grant, asks only from where the client's bytes end.
    const again = (await grant(pkg.slug)).json() as { download_url: string };
    const rest = await fetch(origin + new URL(again.download_url).pathname, {
      headers: { range: `bytes=${received}-` },
    });
    expect(rest.status).toBe(206);
    await rest.arrayBuffer();
    await server.ctx.pendingWork.settled();
    // Together they delivered the whole tar: a receipt can be issued for it.
    expect((await deliveryOf(server.ctx.db, recipient.id, first.size)).served).toEqual([
      [0, first.size],
    ]);
  });

  it("keeps a browser's resume on the same grant in the cut-off download's record", async () => {
    const { recipient, first, received } = await cutLargeDownload();
    const { download_url: url, size } = first;
    await server.ctx.pendingWork.settled();
    // The browser asks from the bytes it has: the server counted more than that before the
    // cut, and the overlap is still the same download.
    const rest = await fetch(origin + new URL(url).pathname, {
      headers: { range: `bytes=${received}-` },
    });
    await rest.arrayBuffer();
    await server.ctx.pendingWork.settled();
    const rows = await server.ctx.db
      .select()
      .from(downloads)
      .where(eq(downloads.recipientId, recipient.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.completedAt).not.toBeNull();
    expect(parseServedRanges(rows[0]!.servedRanges)).toEqual([[0, size]]);
  });

  it.each([
    ['the tar', ''],
    ['one file', 'only.bin'],
  ])(
    'answers 500 for %s when its first bytes cannot be read, and keeps serving',
    async (_, path) => {
      const { recipient, url } = await brokenDownload({ path });
      const response = await fetch(url);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ detail: expect.any(String) });
      // Nothing went out, so there is no download to list.
      expect(await recorded(recipient.id)).toBeUndefined();
      expect((await fetch(`${origin}/healthcheck`)).status).toBe(200);
    },
  );
});

describe('when the server stops', () => {
  it('cuts a download that is still running and records what it delivered', async () => {
    const stopping = await startTestServer();
    const at = await stopping.app.listen({ host: '127.0.0.1', port: 0 });
    const people = await contractFixture(stopping);
    const { pkg } = await createPackage(stopping, {
      contractId: people.contract.id,
      senderId: people.sender.user.id,
      files: 'large',
    });
    const recipient = await addRecipient(stopping, pkg.id, people.receiver.user);
    const granted = await stopping.app.inject({
      method: 'GET',
      url: `/api/packages/${pkg.slug}/download/`,
      headers: people.receiver.headers,
    });
    const response = await fetch(at + new URL(granted.json().download_url as string).pathname);
    // A slow client: it takes one chunk and then nothing, so the response cannot finish.
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    // Without the cut, closing would wait for this client for ever.
    await stopping.app.close();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();

    // The record was written before the database closed; a restarted server reads it.
    const restarted = await buildApp(stopping.ctx.config);
    try {
      const [row] = await restarted.ctx.db
        .select({
          bytesSent: downloads.bytesSent,
          size: downloadGrants.size,
          completedAt: downloads.completedAt,
        })
        .from(downloads)
        .innerJoin(downloadGrants, eq(downloadGrants.id, downloads.grantId))
        .where(eq(downloads.recipientId, recipient.id));
      expect(row!.bytesSent).toBeGreaterThan(0);
      expect(row!.bytesSent).toBeLessThan(row!.size);
      expect(row!.completedAt).toBeNull();
      const [after] = await restarted.ctx.db
        .select()
        .from(packageRecipients)
        .where(eq(packageRecipients.id, recipient.id));
      expect(after!.downloaded).toBe('partial');
    } finally {
      await restarted.app.close();
      await stopping.close();
    }
  });
});
