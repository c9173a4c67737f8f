import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeDemoSettings, productOfFile } from './harness';
import { PARTNER, sendToPartnerWithPin, textCount, textedPin } from './external-package';
import { freshPage, see, signedIn } from './pages';
import { unpackAllInto } from './picked-folder';
import { sendDemoPackage } from './sent-package';

// Delivery receipts end to end in Chromium: a recipient downloads one file, then the whole
// package into a picked folder with the engine, which answers the server's challenge from the
// files in that folder and so earns a signed receipt;
// the sender's download history then shows each download's files and verification, and the
// receipt the sender saves verifies with openssl against the key the server publishes.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';

const product = productOfFile();
let scratch: string;
let slug: string;

const files = [
  { path: 'Conform/edl.txt', bytes: Buffer.from('001  A001 V C 00:00:00:00\n') },
  { path: 'Conform/reel1.mov', bytes: Buffer.alloc(120_000, 3) },
  { path: 'Conform/reel2.mov', bytes: Buffer.alloc(80_000, 9) },
];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-receipts-'));
  slug = await sendDemoPackage(product.server.url, {
    sender: SENDER,
    recipients: [RITA],
    name: 'Conform pull',
    message: 'Reels for the online',
    files,
  });
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Verifies a compact JWS with the openssl command line against a PEM public key. */
async function opensslVerifies(jws: string, pem: string): Promise<boolean> {
  const [header, payload, signature] = jws.trim().split('.') as [string, string, string];
  await writeFile(path.join(scratch, 'key.pem'), pem);
  await writeFile(path.join(scratch, 'signed'), `${header}.${payload}`);
  await writeFile(path.join(scratch, 'signature'), Buffer.from(signature, 'base64url'));
  const run = spawnSync(
    'openssl',
    ['pkeyutl', '-verify', '-pubin', '-inkey', 'key.pem', '-rawin', '-in', 'signed'].concat([
      '-sigfile',
      'signature',
    ]),
    { cwd: scratch, encoding: 'utf8' },
  );
  return run.status === 0 && run.stdout.includes('Signature Verified Successfully');
}

describe('delivery receipts in the browser', () => {
  it("are asked by the engine after a folder download and shown in the sender's history", async () => {
    // The sender has the package open before anything is downloaded, and keeps it open.
    const sender = await signedIn(product, SENDER);
    await sender.goto(`${product.server.url}/sent/${slug}`);
    const sent = sender.getByRole('region', { name: 'Package details' });
    await sent.getByRole('heading', { name: 'Conform pull' }).waitFor();
    const rita = sent.getByRole('listitem', { name: 'Rita Recipient' });
    await expect.poll(() => rita.getByTestId('download-status').innerText()).toBe('Not downloaded');
    // Marks this document: a reload would lose it.
    await sender.evaluate(() => Object.assign(window, { openedBeforeDownloads: true }));

    const page = await signedIn(product, RITA);
    await page.goto(`${product.server.url}/inbox/${slug}`);
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Conform pull' }).waitFor();
    await detail.getByText('Conform/edl.txt').waitFor();

    // One file first, by the browser's own download (optimised download turned off for it): a
    // download covering 1 of the 3 files.
    await page.keyboard.press('Alt+Shift+P');
    await page.getByText('Optimised Download has been disabled').waitFor();
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Conform/edl.txt' }).click(),
    ]);
    await single.saveAs(path.join(scratch, 'edl.txt'));
    const ring = page.getByRole('button', { name: /^Download queue:/ });
    await expect
      .poll(() => ring.getAttribute('aria-label'))
      .toBe('Download queue: 1 download, 100%');

    // Then the whole package, unpacked into a folder of the page's private file system.
    await page.keyboard.press('Alt+Shift+P');
    await page.getByText('Optimised Download has been enabled').waitFor();
    const item = await unpackAllInto(page, 'Online', 'Conform pull', 2);
    expect(await item.getByTestId('upload-status').innerText()).toBe('Completed');
    // The engine checked every file and the server signed a receipt of the delivery.
    await item.getByTestId('download-receipted').waitFor();
    await page.context().close();

    // The sender's open view of it follows without a reload (the realtime channel).
    await expect
      .poll(() => rita.getByTestId('download-status').innerText(), { timeout: 15_000 })
      .toBe('Downloaded');
    await rita.getByRole('button', { name: /^History/ }).click();
    const history = rita.getByRole('table', { name: 'Downloads by Rita Recipient' });
    const records = history.getByTestId('download-record');
    await expect.poll(() => records.count()).toBe(2);
    const fileCell = records.getByTestId('download-files');
    await expect
      .poll(async () => (await fileCell.allInnerTexts()).map((t) => t.trim()))
      .toEqual(['1 of 3 files', 'All files']);
    expect(
      (await records.getByTestId('download-verification').allInnerTexts()).map((t) => t.trim()),
    ).toEqual(['Not verified', 'Verified']);
    expect(await sender.evaluate(() => 'openedBeforeDownloads' in window)).toBe(true);

    // The partial one's list names the one file it delivered.
    await records.nth(0).getByRole('button', { name: '1 of 3 files' }).click();
    const covered = history.getByRole('list', { name: 'Files this download delivered' });
    expect((await covered.getByRole('listitem').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Conform/edl.txt',
    ]);

    // The whole one's receipt, saved as a .jws, verifies against the published key.
    const [saved] = await Promise.all([
      sender.waitForEvent('download'),
      records.nth(1).getByRole('link', { name: 'Receipt (.jws)' }).click(),
    ]);
    expect(saved.suggestedFilename()).toMatch(/^Conform pull\.receipt-\d+\.jws$/);
    const receiptPath = path.join(scratch, 'receipt.jws');
    await saved.saveAs(receiptPath);
    const jws = await readFile(receiptPath, 'utf8');
    const keyHref = await rita.getByRole('link', { name: 'public key' }).getAttribute('href');
    const key = (await (await fetch(new URL(keyHref!, product.server.url))).json()) as {
      pem: string;
    };
    expect(await opensslVerifies(jws, key.pem)).toBe(true);
    // What it signs: this package, held by Rita's engine (it answered the challenge over sampled
    // ranges from the files in her folder), every file verified by it.
    const claims = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      package: { slug: string; files: number };
      proof: { method: string; ranges: number; bytes: number };
      verification: { failed: string[]; unverified: string[] };
    };
    expect(claims).toMatchObject({
      sub: RITA,
      package: { slug, files: 3 },
      proof: { method: 'sampled-ranges-sha256' },
      verification: { failed: [], unverified: [] },
    });
    expect(claims.proof.ranges).toBeGreaterThan(1);
    expect(claims.proof.bytes).toBeGreaterThan(0);
    // One byte changed, and it no longer verifies.
    const tampered = jws.replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect(await opensslVerifies(tampered, key.pem)).toBe(false);
    await sender.context().close();
  });

  it("are asked with the link's key on the external page, once its PIN is proven", async () => {
    await changeDemoSettings(product.server.url, {
      can_add_ad_hoc: true,
      pin_verification: 'adhoc',
    });
    const { link } = await sendToPartnerWithPin(
      product.site,
      product.server,
      product.browser,
      'Grade by link',
    );
    const page = await freshPage(product.browser);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Grade by link' }).waitFor();
    await page.getByRole('button', { name: 'Unlock with PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'PIN verification' });
    const before = await textCount(product.site);
    await dialog.getByRole('button', { name: 'Send PIN' }).click();
    const pin = await textedPin(product.site, before);
    await dialog.getByRole('textbox', { name: 'PIN digit 1' }).click();
    await page.keyboard.type(pin);
    await page.keyboard.press('Enter');
    await see(page, 'PIN verified: you can download the files now.');

    const item = await unpackAllInto(page, 'Grade by link', 'Grade by link');
    await item.getByTestId('download-receipted').waitFor();
    await page.context().close();

    // The sender sees the link holder's download: every file, verified, with its receipt.
    const slug = new URL(link).pathname.split('/').at(-1)!;
    const sender = await signedIn(product, SENDER);
    await sender.goto(`${product.server.url}/sent/${slug}`);
    const sent = sender.getByRole('region', { name: 'Package details' });
    await sent.getByRole('heading', { name: 'Grade by link' }).waitFor();
    const partner = sent.getByRole('listitem', { name: PARTNER });
    await expect.poll(() => partner.getByTestId('download-status').innerText()).toBe('Downloaded');
    await partner.getByRole('button', { name: /^History/ }).click();
    const record = partner.getByTestId('download-record');
    await expect.poll(() => record.getByTestId('download-files').innerText()).toBe('All files');
    expect(await record.getByTestId('download-verification').innerText()).toBe('Verified');
    await record.getByRole('link', { name: 'Receipt (.jws)' }).waitFor();
    await sender.context().close();
  });
});
