import { createHash } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  apiLogin,
  changeDemoSettings,
  DEMO_PASSWORD,
  productOfFile,
  readMails,
  waitForMailLink,
} from './harness';
import { folderToPick, freshPage, logIn, patternOf, sendPickedFolder } from './pages';

// Resuming an upload after the page was reloaded in the middle of it. Files come from folders of
// the origin-private file system, which the folder picker answers with, standing in for the
// person's disk: their handles outlive the reload in IndexedDB, as a real pick's do. Storage
// answers every request late (STORE_FAULTS delay) and the demo contract sends with one worker,
// so the reload lands while the upload is under way.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
const STORAGE_DELAY_MS = 300;

/** Folders on disk for the `<input>` picks. */
let disk: string;

const product = productOfFile({ STORE_FAULTS: `delay=${STORAGE_DELAY_MS}` });

beforeAll(async () => {
  await changeDemoSettings(product.server.url, { number_of_upload_workers: 1 });
  disk = await mkdtemp(path.join(tmpdir(), 'filerunner-resume-'));
});

afterAll(async () => {
  if (disk) await rm(disk, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file to write into the picked folder: its name and size. */
type FileSpec = { name: string; size: number };

const queue = (page: Page) => page.getByRole('dialog', { name: 'Upload queue' });
const upload = (page: Page, name: string) => queue(page).getByRole('listitem', { name });
const statusOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-status').innerText();
const figuresOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-figures').innerText();
const ring = (page: Page) => page.getByRole('button', { name: /^Upload queue:/ });

/** Files sent so far, as the panel counts them ('12 of 200 files'). */
async function filesSent(page: Page, name: string): Promise<number> {
  return Number(/(\d+) of \d+ files/.exec(await figuresOf(page, name))?.[1] ?? NaN);
}

/**
 * The storage writes (FormPost batches and PUTs of slabs and segments) the page starts, by
 * object path, and the HEADs that ask whether an object is stored. Counted across reloads.
 */
function storageTraffic(page: Page) {
  const writes: string[] = [];
  const heads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (!pathname.startsWith('/v1/')) return;
    if (request.method() === 'POST' || request.method() === 'PUT') writes.push(pathname);
    if (request.method() === 'HEAD') heads.push(pathname);
  });
  return { writes, heads };
}

/** Opens the Share screen as the demo sender and sends the picked folder as a package. */
async function sendFolder(page: Page, folder: string, files: FileSpec[]) {
  await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
  await page.goto(`${product.server.url}/share`);
  await folderToPick(page, folder, files);
  await sendPickedFolder(page, folder);
}

/** The paths of the scripts the page requests from now on. */
function scriptsRequested(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** The transfer engine's runner of the page's uploads, by its script's name in the build. */
const isEngineScript = (script: string) => /\/upload-controller-[\w-]+\.js$/.test(script);

/** Reloads the page; the question the page asks first (a package is not sent yet) is answered Leave. */
async function reloadLeaving(page: Page) {
  const leave = (dialog: { type(): string; accept(): Promise<void> }) => {
    if (dialog.type() === 'beforeunload') void dialog.accept();
  };
  page.on('dialog', leave);
  await page.reload();
  page.off('dialog', leave);
}

/** Each file's SHA-256 as the recipient downloads it from the sent package. */
async function downloadedHashes(slugOfMail: string, folder: string, files: FileSpec[]) {
  const slug = new URL(slugOfMail).pathname.split('/').at(-1)!;
  const rita = await apiLogin(product.server.url, RECIPIENT, DEMO_PASSWORD);
  const hashes: Record<string, string> = {};
  for (const { name } of files) {
    const grant = await rita.call(api.downloads.fileGrant, {
      params: { slug, '*': `${folder}/${name}` },
    });
    const answer = await fetch(new URL(grant.download_url, product.server.url));
    expect(answer.status).toBe(200);
    hashes[name] = sha256(new Uint8Array(await answer.arrayBuffer()));
  }
  return hashes;
}

describe('resuming an upload after a reload', () => {
  it('leaves the transfer engine unloaded at start when nothing is there to resume', async () => {
    const page = await freshPage(product.browser);
    const scripts = scriptsRequested(page);
    await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter(isEngineScript)).toEqual([]);
  });

  it('lists the interrupted upload, resumes it with its handles, and sends only what is missing', async () => {
    const page = await freshPage(product.browser);
    const traffic = storageTraffic(page);
    // 120 files of 20 kB: 12 FormPost batches of 10, one after another.
    const files = Array.from({ length: 120 }, (_, i) => ({
      name: `take_${String(i).padStart(3, '0')}.mov`,
      size: 20_000,
    }));
    const mailsBefore = (await readMails(product.site)).length;
    await sendFolder(page, 'Reels', files);
    await expect
      .poll(() => filesSent(page, 'Reels'))
      .toSatisfy((sent: number) => sent >= 30 && sent <= 80);

    const scripts = scriptsRequested(page);
    await reloadLeaving(page);
    const writesBefore = traffic.writes.length;
    expect(writesBefore).toBeGreaterThanOrEqual(3);
    expect(writesBefore).toBeLessThan(12);

    // The panel lists the upload as interrupted, with Resume (its handles were kept) and Discard.
    await ring(page).click();
    await expect.poll(() => statusOf(page, 'Reels')).toBe('Interrupted');
    // Something to resume: the page loaded the transfer engine to offer it.
    expect(scripts.some(isEngineScript)).toBe(true);
    expect(await figuresOf(page, 'Reels')).toBe('120 files · 2.4 MB');
    expect(await upload(page, 'Reels').getByRole('button').allInnerTexts()).toEqual([
      'Resume',
      'Discard',
    ]);

    await upload(page, 'Reels').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => statusOf(page, 'Reels'), { timeout: 60_000 }).toBe('Completed');
    expect(await figuresOf(page, 'Reels')).toBe('100% · 120 of 120 files · 2.4 MB of 2.4 MB');

    // Batches stored before the reload were not sent again: at most the one in flight when the
    // page went away is sent twice.
    const writesAfter = traffic.writes.length - writesBefore;
    expect(writesAfter).toBeGreaterThanOrEqual(12 - writesBefore);
    expect(writesBefore + writesAfter).toBeLessThanOrEqual(12 + 1);
    console.log(
      JSON.stringify({ upload_resume_batches: { before: writesBefore, after: writesAfter } }),
    );

    const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
    const expected = Object.fromEntries(
      files.map(({ name, size }) => [name, sha256(patternOf(name, size))]),
    );
    expect(await downloadedHashes(link, 'Reels', files)).toEqual(expected);
  });

  it('confirms the segments of a large file stored before the reload by HEAD and sends only the rest', async () => {
    const page = await freshPage(product.browser);
    const traffic = storageTraffic(page);
    // Over the large-file threshold: three segments of 100, 100 and 50 MB, one after another.
    const files = [{ name: 'A001.mov', size: 250_000_000 }];
    const mailsBefore = (await readMails(product.site)).length;
    const segmentPuts = () => [...new Set(traffic.writes.filter((p) => p.includes('/segments/')))];
    await sendFolder(page, 'Rushes', files);

    // The second segment starts once the first is stored, as the first goes into the ledger;
    // the reload cuts the second.
    await expect.poll(() => segmentPuts().length, { timeout: 60_000 }).toBe(2);
    await reloadLeaving(page);
    const [first, cut] = segmentPuts();
    const writesBefore = traffic.writes.length;

    await ring(page).click();
    await expect.poll(() => statusOf(page, 'Rushes')).toBe('Interrupted');
    await upload(page, 'Rushes').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => statusOf(page, 'Rushes'), { timeout: 120_000 }).toBe('Completed');
    expect(await figuresOf(page, 'Rushes')).toBe('100% · 1 of 1 file · 250 MB of 250 MB');

    // The first segment is asked after, not sent again; the cut one and the last are sent.
    const writesAfter = traffic.writes.slice(writesBefore);
    expect(traffic.heads).toContain(first);
    expect(writesAfter).not.toContain(first);
    expect(writesAfter).toContain(cut);
    expect(new Set(writesAfter).size).toBe(2);
    console.log(
      JSON.stringify({
        upload_resume_segments: { before: writesBefore, after: writesAfter.length },
      }),
    );

    const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
    expect(await downloadedHashes(link, 'Rushes', files)).toEqual({
      'A001.mov': sha256(patternOf('A001.mov', 250_000_000)),
    });
  });

  it('without handles, takes the same folder picked again and names the files that differ', async () => {
    const files = Array.from({ length: 100 }, (_, i) => ({
      name: `still_${String(i).padStart(3, '0')}.jpg`,
      size: 20_000,
    }));
    const original = path.join(disk, 'card', 'Stills');
    await mkdir(original, { recursive: true });
    // Dates in whole seconds, so the copy's are the same to the millisecond the browser reads.
    const taken = new Date('2026-05-04T10:00:00Z');
    for (const { name, size } of files) {
      await writeFile(path.join(original, name), patternOf(name, size));
      await utimes(path.join(original, name), taken, taken);
    }
    // A copy with the same dates, where one file was edited since and one is gone.
    const copy = path.join(disk, 'copy', 'Stills');
    await cp(original, copy, { recursive: true, preserveTimestamps: true });
    await appendFile(path.join(copy, 'still_007.jpg'), 'edited');
    await unlink(path.join(copy, 'still_042.jpg'));

    const page = await freshPage(product.browser);
    const traffic = storageTraffic(page);
    const mailsBefore = (await readMails(product.site)).length;
    await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
    await page.goto(`${product.server.url}/share`);
    await page.getByLabel('Folder to send').setInputFiles(original);
    await expect.poll(() => page.getByTestId('selected-file-count').innerText()).toMatch(/^100 /);
    await page.getByRole('combobox', { name: 'Recipients' }).fill('Rita');
    await page.getByRole('option', { name: /Rita Recipient/ }).click();
    await page.getByRole('textbox', { name: 'Package name' }).fill('Stills');
    await page.getByRole('button', { name: 'Send Package' }).click();
    await expect
      .poll(() => filesSent(page, 'Stills'))
      .toSatisfy((sent: number) => sent >= 20 && sent <= 70);

    await reloadLeaving(page);
    const writesBefore = traffic.writes.length;
    await ring(page).click();
    await expect.poll(() => statusOf(page, 'Stills')).toBe('Interrupted');
    const item = upload(page, 'Stills');
    expect(await item.getByRole('button').allInnerTexts()).toEqual([
      'Pick the same folder again',
      'Discard',
    ]);
    const pickAgain = item.getByLabel('Pick the same folder again');

    await pickAgain.setInputFiles(copy);
    await item.getByText('Some files are not the ones this upload started with.').waitFor();
    expect(
      await item
        .getByRole('list', { name: 'Files that do not match' })
        .getByRole('listitem')
        .allInnerTexts(),
    ).toEqual(['Stills/still_007.jpg: changed since', 'Stills/still_042.jpg: not found']);
    expect(await statusOf(page, 'Stills')).toBe('Interrupted');
    expect(traffic.writes.length).toBe(writesBefore);

    await pickAgain.setInputFiles(original);
    await expect.poll(() => statusOf(page, 'Stills'), { timeout: 60_000 }).toBe('Completed');
    expect(await figuresOf(page, 'Stills')).toBe('100% · 100 of 100 files · 2 MB of 2 MB');
    const writesAfter = traffic.writes.length - writesBefore;
    expect(writesAfter).toBeGreaterThanOrEqual(10 - writesBefore);
    expect(writesBefore + writesAfter).toBeLessThanOrEqual(10 + 1);

    const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
    const expected = Object.fromEntries(
      files.map(({ name, size }) => [name, sha256(patternOf(name, size))]),
    );
    expect(await downloadedHashes(link, 'Stills', files)).toEqual(expected);
  });
});
