import { compactVerify, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DownloadHistory,
  type FileDownloadGrant,
  type PackageDownloadGrant,
  type ReceiptPublicKey,
  type SentPackage,
} from '@filerunner/protocol';
import { layoutTar } from '@filerunner/transfer';
import { useTestServer, type ContractFixture, type TestServer } from '../../../test/harness';
import { fileBytes, listeningSender } from '../../../test/uploader';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import type { ReceiptClaims } from '@filerunner/protocol';
import { askReceipt } from '../receipts/receipt-fixtures';

// The sender's download history says, per recipient and per download, which of the package's
// files that download delivered whole and what the recipient's engine reported of its check
// (from the receipt it asked for); nobody but the sender reads it.

let server: TestServer;
let origin: string;
let fx: ContractFixture;
let slug: string;
let second: { user: { id: number; email: string }; headers: Record<string, string> };
const files = [
  { path: 'reel/A001.mov', bytes: fileBytes(40_000, 1) },
  { path: 'reel/A002.mov', bytes: fileBytes(30_000, 2) },
  { path: 'reel/notes.txt', bytes: fileBytes(700, 3) },
];
/** The bytes a recipient holding the package reads back, by path. */
const bytesOf = (path: string) => files.find((f) => f.path === path)!.bytes;

useTestServer(async (t) => {
  ({ server } = t);
  ({ origin, fx } = await listeningSender(server, 'History'));
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    name: 'Reel 7',
    files,
  });
  slug = pkg.slug;
  await addRecipient(server, pkg.id, fx.receiver.user);
  // A second recipient: the contract's admin plays the part (and, not being the sender, is
  // refused the history like any recipient).
  second = fx.admin;
  await addRecipient(server, pkg.id, second.user);
});

const call = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => server.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

/** Fetches bytes [start, end) of a grant's URL and waits until the server recorded them. */
async function fetchRange(url: string, start: number, end: number) {
  const response = await fetch(origin + new URL(url, origin).pathname, {
    headers: { range: `bytes=${start}-${end - 1}` },
  });
  expect(response.status).toBe(206);
  await response.arrayBuffer();
  await server.ctx.pendingWork.settled();
}

async function history(headers: Record<string, string> = fx.sender.headers) {
  const response = await call('GET', `/packages/${slug}/download-history/`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DownloadHistory>();
}

const byEmail = (h: DownloadHistory, email: string) => h.recipients.find((r) => r.email === email)!;

describe("a sent package's download history", () => {
  let grant: PackageDownloadGrant;

  beforeAll(async () => {
    grant = (await call('GET', `/packages/${slug}/download/`, fx.receiver.headers)).json();
  });

  it('lists every recipient, with nothing downloaded yet', async () => {
    const h = await history();
    expect(h.files).toEqual(['reel/A001.mov', 'reel/A002.mov', 'reel/notes.txt']);
    expect(h.recipients.map((r) => r.email).sort()).toEqual(
      [fx.receiver.user.email, second.user.email].sort(),
    );
    expect(h.recipients.every((r) => r.downloads.length === 0)).toBe(true);
    expect(byEmail(h, fx.receiver.user.email).id).toBe(fx.receiver.user.id);
  });

  it('shows a whole download, verified by the receipt its engine asked for', async () => {
    // In two ranges on one grant, as the engine's parallel chunks come.
    const half = Math.floor(grant.size / 2);
    await fetchRange(grant.download_url, 0, half);
    await fetchRange(grant.download_url, half, grant.size);
    const issued = await askReceipt(
      server,
      { base: `/packages/${slug}`, headers: fx.receiver.headers },
      bytesOf,
      { verified: 3, unverified: [], failed: [] },
    );
    expect(issued.statusCode, issued.body).toBe(201);

    const [download, ...others] = byEmail(await history(), fx.receiver.user.email).downloads;
    expect(others).toEqual([]);
    expect(download).toMatchObject({
      kind: 'package',
      files_covered: 3,
      covered: null,
      is_partial: false,
      verification: 'verified',
      receipt: { id: issued.json<{ id: number }>().id, verified: 3, failed: 0 },
    });
    // The receipt the sender downloads is the signed one, and it verifies with the published key.
    const key: ReceiptPublicKey = (await call('GET', '/receipts/public-key/', {})).json();
    const { payload } = await compactVerify(
      download!.receipt!.receipt,
      await importJWK(key.jwk, 'EdDSA'),
    );
    const claims = JSON.parse(new TextDecoder().decode(payload)) as ReceiptClaims;
    expect(claims).toMatchObject({ sub: fx.receiver.user.email, package: { slug, files: 3 } });
  });

  it('shows a single file as one of the files, not verified and without a receipt', async () => {
    const file: FileDownloadGrant = (
      await call('GET', `/packages/${slug}/download/reel/A002.mov`, fx.receiver.headers)
    ).json();
    await fetchRange(file.download_url, 0, file.size);
    const downloads = byEmail(await history(), fx.receiver.user.email).downloads;
    expect(downloads).toHaveLength(2);
    expect(downloads[1]).toMatchObject({
      kind: 'file',
      files_covered: 1,
      covered: [1],
      is_partial: false,
      verification: 'unverified',
      receipt: null,
    });
  });

  it('shows a cut-off download covering only the files it delivered whole', async () => {
    const own: PackageDownloadGrant = (
      await call('GET', `/packages/${slug}/download/`, second.headers)
    ).json();
    const layout = layoutTar(own.files.map((f) => ({ ...f, mtime: own.mtime })));
    const first = layout.entries[0]!;
    // The first file whole and a few bytes of the second.
    await fetchRange(own.download_url, 0, first.dataOffset + first.source.size + 1500);
    const [download] = byEmail(await history(), second.user.email).downloads;
    expect(download).toMatchObject({
      kind: 'package',
      files_covered: 1,
      covered: [0],
      is_partial: true,
      verification: 'unverified',
      receipt: null,
    });
  });

  it('says when the engine reported files that failed their check', async () => {
    const own: PackageDownloadGrant = (
      await call('GET', `/packages/${slug}/download/`, second.headers)
    ).json();
    // As the engine unpacking the tar asks: from the first file's data to the last member's,
    // without the leading header and the closing blocks.
    const layout = layoutTar(own.files.map((f) => ({ ...f, mtime: own.mtime })));
    const last = layout.entries.at(-1)!;
    await fetchRange(
      own.download_url,
      layout.entries[0]!.dataOffset,
      last.dataOffset + last.source.size,
    );
    const issued = await askReceipt(
      server,
      { base: `/packages/${slug}`, headers: second.headers },
      bytesOf,
      { verified: 2, unverified: [], failed: ['reel/notes.txt'] },
    );
    expect(issued.statusCode, issued.body).toBe(201);
    const downloads = byEmail(await history(), second.user.email).downloads;
    expect(downloads.map((d) => [d.files_covered, d.is_partial, d.verification])).toEqual([
      [1, true, 'unverified'],
      [3, false, 'failed'],
    ]);
    // Every file's bytes went (the receipt proves it): the sender reads 'Downloaded'.
    const sent = await call('GET', `/packages/sent/${slug}/`, fx.sender.headers);
    const recipient = sent
      .json<SentPackage>()
      .recipients.find((r) => r.email === second.user.email);
    expect(recipient?.downloaded).toBe('complete');
  });

  it('is for the sender only: a recipient, another user and nobody are refused', async () => {
    for (const headers of [fx.receiver.headers, fx.outsider.headers, fx.admin.headers]) {
      const refused = await call('GET', `/packages/${slug}/download-history/`, headers);
      expect(refused.statusCode).toBe(404);
    }
    const anonymous = await call('GET', `/packages/${slug}/download-history/`, {});
    expect(anonymous.statusCode).toBe(401);
  });
});
