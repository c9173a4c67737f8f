import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_VERSION_HEADER,
  RECEIPT_CHALLENGE_RANGES,
  RECEIPT_RANGE_BYTES,
  receiptMessages,
  type DeliveryReceipt,
  type PackageDownloadGrant,
  type ReceiptChallenge,
  type ReceiptClaims,
  type ReceiptPublicKey,
  type SenderPackage,
  type SentPackage,
} from '@filerunner/protocol';
import { useTestServer, type ContractFixture, type TestServer } from '../../../test/harness';
import { fileBytes, listeningSender, type TestFile } from '../../../test/uploader';
import { newToken, tokenHash } from '../../http/secrets';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import { c4Id } from '../mhl/c4';
import { allVerified, answersFrom, askReceipt } from './receipt-fixtures';

// A receipt rests on proof that the recipient holds the package's bytes: a challenge of sampled
// ranges, answered with SHA-256(nonce || bytes) and checked against storage. Only then does the
// server sign one with its Ed25519 key, which openssl and any JOSE library verify against the
// published key. Bytes merely served, claims the package cannot bear and wrong answers get none.

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

/** The bytes a recipient holding the package reads back, by path. */
const bytesOf = (path: string) => files.find((f) => f.path === path)!.bytes;
const report = allVerified(2);
const asReceiver = () => ({ base: `/packages/${sent.slug}`, headers: fx.receiver.headers });
/** A browser with no session, as the external page calls. */
const anyone = { [CLIENT_VERSION_HEADER]: 'test' };
const call = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => server.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

/** A fresh challenge for the package's receiver. */
async function challenge(): Promise<ReceiptChallenge> {
  const asked = await call(
    'POST',
    `/packages/${sent.slug}/receipt/challenge/`,
    fx.receiver.headers,
  );
  expect(asked.statusCode, asked.body).toBe(201);
  return asked.json();
}

/** The receiver's status as the sender reads it. */
async function receiverStatus() {
  const view = await call('GET', `/packages/sent/${sent.slug}/`, fx.sender.headers);
  return view.json<SentPackage>().recipients.find((r) => r.email === fx.receiver.user.email)!
    .downloaded;
}

/**
 * The attack on served bytes: ranged GETs of the whole tar, each closed a moment after its
 * headers came with nothing read, so the server wrote what it could to a socket no one read.
 */
async function openAndAbandon(grant: PackageDownloadGrant, pieces: number) {
  const step = Math.ceil(grant.size / pieces);
  for (let start = 0; start < grant.size; start += step) {
    const end = Math.min(grant.size, start + step);
    const controller = new AbortController();
    const response = await fetch(origin + new URL(grant.download_url).pathname, {
      headers: { range: `bytes=${start}-${end - 1}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(206);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
  }
  await server.ctx.pendingWork.settled();
}

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

  it('challenge a sample of ranges across the files, bounded, fresh each time', async () => {
    const first = await challenge();
    expect(first.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(first.ranges.length).toBeGreaterThan(1);
    expect(first.ranges.length).toBeLessThanOrEqual(RECEIPT_CHALLENGE_RANGES);
    for (const range of first.ranges) {
      const file = files.find((f) => f.path === range.path)!;
      expect(range.length).toBeLessThanOrEqual(RECEIPT_RANGE_BYTES);
      expect(range.offset + range.length).toBeLessThanOrEqual(file.bytes.length);
    }
    const next = await challenge();
    expect(next.nonce).not.toBe(first.nonce);
    // A new challenge replaces the one before: that one can no longer be answered.
    const stale = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      challenge: first.challenge,
      answers: answersFrom(first, bytesOf),
      ...report,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ detail: receiptMessages.challengeUnknown });
  });

  it('are refused for bytes served but never read, without the answers', async () => {
    await openAndAbandon(grant, 8);
    // Without a challenge, as a receipt was asked before.
    const bare = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, report);
    expect(bare.statusCode).toBe(400);
    // With guessed answers: the abandoned responses taught the client nothing.
    const asked = await challenge();
    const guessed = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      challenge: asked.challenge,
      answers: asked.ranges.map((r) => createHash('sha256').update(r.path).digest('hex')),
      ...report,
    });
    expect(guessed.statusCode).toBe(403);
    expect(guessed.json()).toEqual({ detail: receiptMessages.wrongAnswers });
    expect(
      (await call('GET', `/packages/${sent.slug}/receipts/`, fx.sender.headers)).json(),
    ).toEqual([]);
  });

  it('are refused for one wrong byte, and the challenge is spent', async () => {
    const asked = await challenge();
    const wrong = (path: string) => {
      const bytes = Buffer.from(bytesOf(path));
      const last = asked.ranges.at(-1)!;
      if (path === last.path) bytes[last.offset] = bytes[last.offset]! ^ 1;
      return bytes;
    };
    const payload = { challenge: asked.challenge, ...report };
    const refused = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      ...payload,
      answers: answersFrom(asked, wrong),
    });
    expect(refused.statusCode).toBe(403);
    const again = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      ...payload,
      answers: answersFrom(asked, bytesOf),
    });
    expect(again.statusCode).toBe(409);
  });

  it('are refused when bytes are fetched between the challenge and its answer', async () => {
    // A client holding nothing could otherwise fetch just the sampled ranges (about 1 MiB) once
    // it knows them: a download serving bytes after the challenge spends it.
    const asked = await challenge();
    await fetchRange(grant, 0, 1024);
    const late = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      challenge: asked.challenge,
      answers: answersFrom(asked, bytesOf),
      ...report,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ detail: receiptMessages.challengeUnknown });
    // A HEAD serves no bytes and spends nothing: the challenge is still there to be answered
    // (wrongly here, 403 rather than 409, so no receipt is made).
    const next = await challenge();
    const head = await fetch(origin + new URL(grant.download_url).pathname, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const answered = await call('POST', `/packages/${sent.slug}/receipt/`, fx.receiver.headers, {
      challenge: next.challenge,
      answers: next.ranges.map(() => '0'.repeat(64)),
      ...report,
    });
    expect(answered.statusCode, answered.body).toBe(403);
  });

  it('are refused for claims the package cannot bear, even with the right answers', async () => {
    const inflated = [
      [{ verified: 999_999, unverified: [], failed: [] }, 'verified'],
      [{ verified: 1, unverified: ['elsewhere/secret.txt'], failed: [] }, 'unverified'],
      [{ verified: 1, unverified: ['reel/notes.txt'], failed: ['reel/notes.txt'] }, 'failed'],
    ] as const;
    for (const [claimed, field] of inflated) {
      const response = await askReceipt(server, asReceiver(), bytesOf, {
        ...claimed,
        unverified: [...claimed.unverified],
        failed: [...claimed.failed],
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json())).toEqual([field]);
    }
  });

  it('are signed on the right answers, whatever the served-bytes records say', async () => {
    // What the records say was served is not asked: only the answers count.
    const response = await askReceipt(server, asReceiver(), bytesOf, {
      verified: 1,
      unverified: ['reel/notes.txt'],
      failed: [],
    });
    expect(response.statusCode, response.body).toBe(201);
    issued = response.json();
    expect(issued).toMatchObject({ bytes: grant.size, verified: 1, unverified: 1, failed: 0 });
    // The recipient holds the package: the sender reads 'Downloaded'.
    expect(await receiverStatus()).toBe('complete');
  });

  it('say what was proven, and verify with a JOSE library and with openssl', async () => {
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
      proof: { method: 'sampled-ranges-sha256' },
      mhl: { c4: c4Id(mhl.rawPayload) },
      verification: { verified: 1, unverified: ['reel/notes.txt'], failed: [] },
    });
    expect(claims.proof.ranges).toBeGreaterThan(1);
    expect(claims.proof.bytes).toBeGreaterThan(0);
    expect(claims.proof.bytes).toBeLessThanOrEqual(claims.proof.ranges * RECEIPT_RANGE_BYTES);
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

  it('are given to an external link holder who answers their challenge', async () => {
    const one = fileBytes(5000, 21);
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name: 'By link',
      files: [{ path: 'one.bin', bytes: one }],
    });
    const linkKey = newToken();
    await addRecipient(server, pkg.id, fx.receiver.user, { keyHash: tokenHash(linkKey) });
    const q = `?key=${encodeURIComponent(linkKey)}`;
    const linkGrant: PackageDownloadGrant = (
      await call('GET', `/packages/external/${pkg.slug}/download/${q}`, {})
    ).json();
    await fetchRange(linkGrant, 0, linkGrant.size);
    const link = { base: `/packages/external/${pkg.slug}`, headers: anyone };
    const after = await askReceipt(server, { ...link, query: q }, () => one, allVerified(1));
    expect(after.statusCode, after.body).toBe(201);
    const wrong = await askReceipt(
      server,
      { ...link, query: `?key=${newToken()}` },
      () => one,
      allVerified(1),
    );
    expect(wrong.statusCode).toBe(404);
  });
});
