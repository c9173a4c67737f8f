import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_VERSION_HEADER,
  receiptMessages,
  type DeliveryReceipt,
  type PackageDownloadGrant,
  type ReceiptPublicKey,
  type SenderPackage,
} from '@filerunner/protocol';
import { useTestServer, type ContractFixture, type TestServer } from '../../../test/harness';
import { fileBytes, listeningSender, type TestFile } from '../../../test/uploader';
import { newToken, tokenHash } from '../../http/secrets';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import { c4Id } from '../mhl/c4';
import type { ReceiptClaims } from './receipts.service';

// A recipient's complete download earns a receipt signed with the server's Ed25519 key, which
// openssl and any JOSE library verify against the published key; nothing else does.

let server: TestServer;
let origin: string;
let fx: ContractFixture;
let sent: SenderPackage;
const files: TestFile[] = [
  { path: 'reel/A001.mov', bytes: fileBytes(150_000, 1) },
  { path: 'reel/notes.txt', bytes: fileBytes(300, 2) },
];

useTestServer(async (t) => {
  ({ server } = t);
  const made = await listeningSender(server, 'Receipts');
  ({ origin, fx } = made);
  sent = await made.sender.createOf(files, {
    contract: fx.contract.slug,
    name: 'Reel 4',
    recipients: [{ id: fx.receiver.user.id }],
  });
  await made.sender.send(files, { pkg: sent });
});

const scratch = mkdtempSync(path.join(tmpdir(), 'fr-receipts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const report = { verified: 2, unverified: [], failed: [] };
/** A browser with no session, as the external page calls. */
const anyone = { [CLIENT_VERSION_HEADER]: 'test' };
const call = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => server.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

/** Fetches bytes [start, end) of the package's tar as its recipient. */
async function fetchRange(grant: PackageDownloadGrant, start: number, end: number) {
  const response = await fetch(origin + new URL(grant.download_url).pathname, {
    headers: { range: `bytes=${start}-${end - 1}` },
  });
  expect(response.status).toBe(206);
  await response.arrayBuffer();
  await server.ctx.pendingWork.settled();
}

/** Verifies a compact JWS with the openssl command line against the published PEM. */
function opensslVerifies(jws: string, key: ReceiptPublicKey): boolean {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  writeFileSync(path.join(scratch, 'key.pem'), key.pem);
  writeFileSync(path.join(scratch, 'input'), `${header}.${payload}`);
  writeFileSync(path.join(scratch, 'sig'), Buffer.from(signature, 'base64url'));
  const run = spawnSync(
    'openssl',
    [
      'pkeyutl',
      '-verify',
      '-pubin',
      '-inkey',
      'key.pem',
      '-rawin',
      '-in',
      'input',
      '-sigfile',
      'sig',
    ],
    { cwd: scratch, encoding: 'utf8' },
  );
  return run.status === 0 && run.stdout.includes('Signature Verified Successfully');
}

describe('delivery receipts', () => {
  let grant: PackageDownloadGrant;
  let key: ReceiptPublicKey;
  let issued: DeliveryReceipt;

  beforeAll(async () => {
    grant = (await call('GET', `/packages/${sent.slug}/download/`, fx.receiver.headers)).json();
    key = (await call('GET', '/receipts/public-key/', {})).json();
  });

  it('are refused until every byte of the package was delivered', async () => {
    const none = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, report);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ detail: receiptMessages.notDelivered });

    const half = Math.floor(grant.size / 2);
    await fetchRange(grant, 0, half);
    const partial = await call(
      'POST',
      `/packages/${sent.slug}/receipt/`,
      fx.receiver.headers,
      report,
    );
    expect(partial.statusCode).toBe(409);

    // The rest on a second grant, as an engine resuming after a crash would: together, all of it.
    const again: PackageDownloadGrant = (
      await call('GET', `/packages/${sent.slug}/download/`, fx.receiver.headers)
    ).json();
    await fetchRange(again, half, grant.size);
    const response = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      verified: 1,
      unverified: ['reel/notes.txt'],
      failed: [],
    });
    expect(response.statusCode, response.body).toBe(201);
    issued = response.json();
    expect(issued).toMatchObject({ bytes: grant.size, verified: 1, unverified: 1, failed: 0 });
  });

  it('say what was delivered, and verify with a JOSE library and with openssl', async () => {
    const { payload, protectedHeader } = await compactVerify(
      issued.receipt,
      await importJWK(key.jwk, 'EdDSA'),
    );
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: key.kid });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as ReceiptClaims;
    const mhl = await call('GET', `/packages/${sent.slug}/mhl/`, fx.receiver.headers);
    expect(claims).toMatchObject({
      sub: fx.receiver.user.email,
      package: { slug: sent.slug, name: 'Reel 4', files: 2, tar_bytes: grant.size },
      delivered: { bytes: grant.size },
      mhl: { c4: c4Id(mhl.rawPayload) },
      verification: { verified: 1, unverified: ['reel/notes.txt'], failed: [] },
    });
    expect(opensslVerifies(issued.receipt, key)).toBe(true);
  });

  it('fail verification with one byte changed', async () => {
    const [header, payload, signature] = issued.receipt.split('.') as [string, string, string];
    const bytes = Buffer.from(payload, 'base64url');
    bytes[bytes.indexOf('"verified":1') + 11] = '9'.charCodeAt(0);
    const tampered = `${header}.${bytes.toString('base64url')}.${signature}`;
    expect(opensslVerifies(tampered, key)).toBe(false);
    await expect(compactVerify(tampered, await importJWK(key.jwk, 'EdDSA'))).rejects.toThrow();
  });

  it('are listed for the sender only', async () => {
    const list = await call('GET', `/packages/${sent.slug}/receipts/`, fx.sender.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([issued]);
    const recipient = await call('GET', `/packages/${sent.slug}/receipts/`, fx.receiver.headers);
    expect(recipient.statusCode).toBe(404);
  });

  it('are signed with one key, the same after the server restarts its key cache', async () => {
    const { receiptKey } = await import('./signing-key');
    const loaded = await receiptKey(server.ctx.db);
    expect(loaded.kid).toBe(key.kid);
    // openssl reads the published PEM as an Ed25519 public key.
    const text = execFileSync('openssl', ['pkey', '-pubin', '-noout', '-text'], { input: key.pem });
    expect(text.toString()).toContain('ED25519 Public-Key');
  });

  it('are given to an external link holder after their complete download', async () => {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name: 'By link',
      files: [{ path: 'one.bin', bytes: fileBytes(5000, 21) }],
    });
    const linkKey = newToken();
    await addRecipient(server, pkg.id, fx.receiver.user, { keyHash: tokenHash(linkKey) });
    const q = `?key=${encodeURIComponent(linkKey)}`;
    const before = await call(
      'POST',
      `/packages/external/${pkg.slug}/receipt/${q}`,
      anyone,
      report,
    );
    expect(before.statusCode).toBe(409);
    const linkGrant: PackageDownloadGrant = (
      await call('GET', `/packages/external/${pkg.slug}/download/${q}`, {})
    ).json();
    await fetchRange(linkGrant, 0, linkGrant.size);
    const after = await call('POST', `/packages/external/${pkg.slug}/receipt/${q}`, anyone, report);
    expect(after.statusCode, after.body).toBe(201);
    const wrong = await call(
      'POST',
      `/packages/external/${pkg.slug}/receipt/?key=${newToken()}`,
      anyone,
      report,
    );
    expect(wrong.statusCode).toBe(404);
  });
});
