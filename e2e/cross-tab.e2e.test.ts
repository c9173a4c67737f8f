import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  apiLogin,
  changeDemoSettings,
  DEMO_PASSWORD,
  productOfFile,
  readMails,
  waitForMailLink,
} from './harness';
import { folderToPick, logIn, patternOf, sendPickedFolder } from './pages';

// Two tabs of one browser: two pages of one browser context, sharing its cookies and its
// localStorage, as a person's tabs do. Storage answers every request late (STORE_FAULTS delay)
// and the demo contract sends with one worker, so an upload of a folder takes long enough for
// the other tab to act in the middle of it.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
const STORAGE_DELAY_MS = 500;

const product = productOfFile({ STORE_FAULTS: `delay=${STORAGE_DELAY_MS}` });

beforeAll(() => changeDemoSettings(product.server.url, { number_of_upload_workers: 1 }));

/** `count` files of 20 kB, `take_000.mov` on: FormPost batches of 10. */
const takes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `take_${String(i).padStart(3, '0')}.mov`,
    size: 20_000,
  }));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// The queue is read behind a modal dialog too, which hides the rest of the page from the
// accessibility tree.
const queue = (page: Page) =>
  page.getByRole('dialog', { name: 'Upload queue', includeHidden: true });
const upload = (page: Page, name: string) =>
  queue(page).getByRole('listitem', { name, includeHidden: true });
const statusOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-status').innerText();
const figuresOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-figures').innerText();

/** Files sent so far, as the panel counts them ('12 of 120 files'). */
async function filesSent(page: Page, name: string): Promise<number> {
  return Number(/(\d+) of \d+ files/.exec(await figuresOf(page, name))?.[1] ?? NaN);
}

/** The storage writes (FormPost batches, PUTs) the page starts from now on, by object path. */
function storageWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (!pathname.startsWith('/v1/')) return;
    if (request.method() === 'POST' || request.method() === 'PUT') writes.push(pathname);
  });
  return writes;
}

/** Two tabs of a new browser window, both signed in as the demo sender. */
async function twoTabs(): Promise<{ context: BrowserContext; a: Page; b: Page }> {
  const context = await product.browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(15_000);
  const a = await context.newPage();
  await logIn(a, product.server.url, SENDER, DEMO_PASSWORD);
  const b = await context.newPage();
  await b.goto(`${product.server.url}/inbox`);
  await b.getByRole('heading', { name: 'Inbox' }).waitFor();
  return { context, a, b };
}

/** Tab `a` sends the folder as a package of its name; resolves once some files are sent. */
async function sendFrom(a: Page, folder: string, files: { name: string; size: number }[]) {
  await a.goto(`${product.server.url}/share`);
  await folderToPick(a, folder, files);
  await sendPickedFolder(a, folder);
  await upload(a, folder).getByTestId('upload-figures').waitFor({ timeout: 60_000 });
  await expect
    .poll(() => filesSent(a, folder))
    .toSatisfy((sent: number) => sent > 0 && sent < files.length);
}

/** Each file's SHA-256 as the recipient downloads it from the package the mailed link names. */
async function downloadedHashes(link: string, folder: string, files: { name: string }[]) {
  const slug = new URL(link).pathname.split('/').at(-1)!;
  const rita = await apiLogin(product.server.url, RECIPIENT, DEMO_PASSWORD);
  const hashes: Record<string, string> = {};
  for (const { name } of files) {
    const grant = await rita.call(api.downloads.fileGrant, {
      params: { slug, '*': `${folder}/${name}` },
    });
    const answer = await fetch(new URL(grant.download_url, product.server.url));
    hashes[name] = sha256(new Uint8Array(await answer.arrayBuffer()));
  }
  return hashes;
}

describe('an upload and the other tabs of the same browser', () => {
  it('pauses when another tab logs out, says so, and resumes when the person logs in again', async () => {
    const { context, a, b } = await twoTabs();
    const files = takes(120);
    const writes = storageWrites(a);
    const mailsBefore = (await readMails(product.site)).length;
    await sendFrom(a, 'Crosstab', files);

    await b.getByRole('button', { name: 'Log out' }).click();
    await b.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await b.waitForURL('**/login');

    // Tab A stays where it is, paused, and tells the person why and what to do.
    const dialog = a.getByRole('dialog', { name: "You've been logged out" });
    await dialog.waitFor();
    await dialog.getByText('Do not refresh this page').waitFor();
    await expect.poll(() => statusOf(a, 'Crosstab')).toBe('Paused');
    expect(new URL(a.url()).pathname).toBe('/share');
    // A batch on its way when the session ended lands; after that nothing is sent.
    await a.waitForTimeout(STORAGE_DELAY_MS * 3);
    const whilePaused = writes.length;
    const sentWhilePaused = await filesSent(a, 'Crosstab');
    await a.waitForTimeout(STORAGE_DELAY_MS * 5);
    expect(writes.length).toBe(whilePaused);
    expect(sentWhilePaused).toBeLessThan(files.length);
    expect(await statusOf(a, 'Crosstab')).toBe('Paused');

    // Its button opens the login page in a new tab.
    const opened = context.waitForEvent('page');
    await dialog.getByRole('button', { name: 'Go to login page' }).click();
    const loginTab = await opened;
    await loginTab.waitForURL('**/login');
    await loginTab.close();

    // Logging in again (in tab B) resumes it where it stopped.
    await logIn(b, product.server.url, SENDER, DEMO_PASSWORD);
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => statusOf(a, 'Crosstab'), { timeout: 60_000 }).toBe('Completed');
    expect(await figuresOf(a, 'Crosstab')).toBe('100% · 120 of 120 files · 2.4 MB of 2.4 MB');

    // Every batch was written once: none stored before the pause was sent again.
    expect(writes.length).toBe(12);
    const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
    const expected = Object.fromEntries(
      files.map(({ name, size }) => [name, sha256(patternOf(name, size))]),
    );
    expect(await downloadedHashes(link, 'Crosstab', files)).toEqual(expected);
    await context.close();
  });

  it('shows the upload in a second tab as running in another tab, with its progress, then sent', async () => {
    const context = await product.browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    const a = await context.newPage();
    await logIn(a, product.server.url, SENDER, DEMO_PASSWORD);
    const files = takes(120);
    await sendFrom(a, 'Elsewhere', files);

    // Tab B opens while tab A sends: the upload is kept for a resume, but it is not interrupted.
    const b = await context.newPage();
    await b.goto(`${product.server.url}/inbox`);
    await b.getByRole('button', { name: /^Upload queue: 1 upload, \d+%$/ }).click();
    await expect.poll(() => statusOf(b, 'Elsewhere')).toBe('Uploading in another tab');
    expect(await queue(b).getByRole('listitem').count()).toBe(1);
    expect(await upload(b, 'Elsewhere').getByRole('button').count()).toBe(0);
    // Its progress moves as tab A sends.
    const first = await filesSent(b, 'Elsewhere');
    expect(await figuresOf(b, 'Elsewhere')).toMatch(/^\d+% · \d+ of 120 files · /);
    await expect.poll(() => filesSent(b, 'Elsewhere')).toBeGreaterThan(first);

    await expect.poll(() => statusOf(a, 'Elsewhere'), { timeout: 60_000 }).toBe('Completed');
    await expect.poll(() => statusOf(b, 'Elsewhere')).toBe('Completed in another tab');
    expect(await figuresOf(b, 'Elsewhere')).toBe('100% · 120 of 120 files · 2.4 MB of 2.4 MB');
    await upload(b, 'Elsewhere')
      .getByText('Your package has been sent. The recipients have been emailed.')
      .waitFor();

    // Tab A closes: its upload, sent, leaves tab B too, and nothing is left to resume there.
    await a.close();
    await b.getByRole('complementary', { name: 'Transfers' }).waitFor({ state: 'detached' });
    await b.reload();
    await b.getByRole('heading', { name: 'Inbox' }).waitFor();
    await b.waitForLoadState('networkidle');
    expect(await b.getByRole('complementary', { name: 'Transfers' }).count()).toBe(0);
    await context.close();
  });
});
