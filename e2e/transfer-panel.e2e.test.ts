import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import { apiLogin, changeDemoSettings, DEMO_PASSWORD, productOfFile, waitForMail } from './harness';
import { folderToPick, patternOf, see, sendPickedFolder, signedIn, uncovered } from './pages';

// The transfer side panel as the demo sender watches it. Storage answers every request late
// (STORE_FAULTS delay) and the demo contract sends with one worker, so a folder of 200 small
// files (20 FormPost batches) takes several seconds: long enough to watch it move, pause it and
// take the browser offline. Each test sends its own folder from a fresh browser context.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
const STORAGE_DELAY_MS = 300;

const product = productOfFile({ STORE_FAULTS: `delay=${STORAGE_DELAY_MS}` });

beforeAll(() => changeDemoSettings(product.server.url, { number_of_upload_workers: 1 }));

/** `count` files of `size` bytes, `take_000.mov` ..., as `folderToPick` writes them. */
const takes = (count: number, size: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `take_${String(i).padStart(3, '0')}.mov`,
    size,
  }));

/** Opens the Share screen as the demo sender and sends the folder as a package of that name. */
async function sendFolder(folder: string, count: number, size: number): Promise<Page> {
  const page = await signedIn(product, SENDER);
  await page.goto(`${product.server.url}/share`);
  await folderToPick(page, folder, takes(count, size));
  await sendPickedFolder(page, folder);
  return page;
}

const queue = (page: Page) => page.getByRole('dialog', { name: 'Upload queue' });
const upload = (page: Page, name: string) => queue(page).getByRole('listitem', { name });
const statusOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-status').innerText();
const figuresOf = (page: Page, name: string) =>
  upload(page, name).getByTestId('upload-figures').innerText();
const controlsOf = (page: Page, name: string) =>
  upload(page, name).getByRole('button').allInnerTexts();
const ring = (page: Page) => page.getByRole('button', { name: /^Upload queue:/ });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Transfers' });

/** Files sent so far, as the panel counts them ('12 of 200 files'). */
async function filesSent(page: Page, name: string): Promise<number> {
  return Number(/(\d+) of \d+ files/.exec(await figuresOf(page, name))?.[1] ?? NaN);
}

/** Storage requests (`/v1/...`) the page starts from now on. */
function storageRequests(page: Page): { count: () => number } {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/')) count++;
  });
  return { count: () => count };
}

/**
 * Waits until the upload has sent some files but not all. The upload is listed only once its
 * package is created, which on a loaded CI machine can take longer than a locator's wait.
 */
async function underWay(page: Page, name: string, total: number) {
  await upload(page, name).getByTestId('upload-figures').waitFor({ timeout: 60_000 });
  await expect
    .poll(() => filesSent(page, name))
    .toSatisfy((sent: number) => sent > 0 && sent < total);
}

describe('the transfer panel', () => {
  it('shows a sent package: ring when collapsed, the queue expanded, its progress, sent', async () => {
    const page = await sendFolder('Shoot', 60, 50_000);

    // The queue was empty, so it opens by itself over the dimmed screen.
    await queue(page).waitFor();
    expect((await queue(page).boundingBox())?.width).toBe(560);
    await page.locator('.MuiBackdrop-root').waitFor();
    await page.getByRole('button', { name: 'Collapse the upload queue' }).click();
    await queue(page).waitFor({ state: 'hidden' });

    expect((await panel(page).boundingBox())?.width).toBe(80);
    expect(await ring(page).getAttribute('aria-label')).toMatch(/^Upload queue: 1 upload, \d+%$/);
    expect(await ring(page).getAttribute('data-tone')).toBe('primary');
    await ring(page).click();
    await queue(page).waitFor();

    await expect.poll(() => statusOf(page, 'Shoot'), { timeout: 60_000 }).toBe('Completed');
    expect(await figuresOf(page, 'Shoot')).toBe('100% · 60 of 60 files · 3 MB of 3 MB');
    await upload(page, 'Shoot')
      .getByText('Your package has been sent. The recipients have been emailed.')
      .waitFor();
    expect(await controlsOf(page, 'Shoot')).toEqual([]);

    // A click on the dimmed screen collapses the queue; the ring is full.
    await page.mouse.click(300, 450);
    await queue(page).waitFor({ state: 'hidden' });
    expect(await ring(page).getAttribute('aria-label')).toBe('Upload queue: 1 upload, 100%');
    await ring(page).click();
    await queue(page).getByRole('button', { name: 'Clear' }).click();
    await panel(page).waitFor({ state: 'detached' });
  });

  it('pauses and resumes from the panel, and asks before the tab closes', async () => {
    const page = await sendFolder('Reel', 200, 20_000);
    await underWay(page, 'Reel', 200);
    expect(await statusOf(page, 'Reel')).toBe('Uploading');
    // While it moves it tells the rate and the time left.
    await expect
      .poll(() => figuresOf(page, 'Reel'))
      .toMatch(/ of 4 MB · [\d.]+ [kMG]?b\/s · .+ left$/);

    await upload(page, 'Reel').getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => statusOf(page, 'Reel')).toBe('Paused');
    expect(await controlsOf(page, 'Reel')).toEqual(['Resume', 'Cancel']);
    const paused = await filesSent(page, 'Reel');
    const requests = storageRequests(page);
    // Nothing is sent while paused: several storage round trips' worth of time, no request.
    await page.waitForTimeout(STORAGE_DELAY_MS * 5);
    expect(requests.count()).toBe(0);
    expect(await filesSent(page, 'Reel')).toBe(paused);

    // A paused upload turns the ring red.
    await page.getByRole('button', { name: 'Collapse the upload queue' }).click();
    expect(await ring(page).getAttribute('data-tone')).toBe('error');

    // The package is not sent yet: closing the tab asks first (and staying keeps the upload).
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    expect(page.isClosed()).toBe(false);

    await ring(page).click();
    await upload(page, 'Reel').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => statusOf(page, 'Reel'), { timeout: 60_000 }).toBe('Completed');
    expect(await figuresOf(page, 'Reel')).toBe('100% · 200 of 200 files · 4 MB of 4 MB');
    expect(requests.count()).toBeGreaterThan(0);
  });

  it('pauses while the browser is offline and resumes when it is back', async () => {
    const page = await sendFolder('Dailies', 200, 20_000);
    await underWay(page, 'Dailies', 200);

    await page.context().setOffline(true);
    await see(page, 'You are currently offline. Your upload has been paused.');
    await expect.poll(() => statusOf(page, 'Dailies')).toBe('Paused');
    // Offline only Cancel is offered: pausing and resuming follow the connection.
    expect(await controlsOf(page, 'Dailies')).toEqual(['Cancel']);
    const paused = await filesSent(page, 'Dailies');

    await page.context().setOffline(false);
    await page
      .getByText('You are currently offline. Your upload has been paused.')
      .waitFor({ state: 'detached' });
    await expect.poll(() => statusOf(page, 'Dailies'), { timeout: 60_000 }).toBe('Completed');
    expect(paused).toBeLessThan(200);
    expect(await figuresOf(page, 'Dailies')).toBe('100% · 200 of 200 files · 4 MB of 4 MB');

    // The recipient is mailed (matched by name: the previous package's mail may come late), and
    // files sent on both sides of the break arrived intact.
    const mail = await waitForMail(
      product.site,
      (m) => m.to.includes(RECIPIENT) && m.text.includes('"Dailies"'),
    );
    const link = mail.links.find((l) => l.includes('/inbox/'))!;
    const slug = new URL(link).pathname.split('/').at(-1)!;
    const rita = await apiLogin(product.server.url, RECIPIENT, DEMO_PASSWORD);
    for (const name of ['take_000.mov', 'take_199.mov']) {
      const grant = await rita.call(api.downloads.fileGrant, {
        params: { slug, '*': `Dailies/${name}` },
      });
      const stored = await fetch(new URL(grant.download_url, product.server.url)).then((r) =>
        r.arrayBuffer(),
      );
      const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
      expect(sha(new Uint8Array(stored))).toBe(sha(patternOf(name, 20_000)));
    }
  });

  it('keeps the upload queue in reach below the offline banner', async () => {
    const page = await sendFolder('Rushes', 200, 20_000);
    await underWay(page, 'Rushes', 200);

    await page.context().setOffline(true);
    await see(page, 'You are currently offline. Your upload has been paused.');
    // The queue's title and its collapse button sit below the banner, not under it.
    await expect
      .poll(() => uncovered(queue(page).getByRole('heading', { name: 'Uploads' })))
      .toBe(true);
    const collapseButton = page.getByRole('button', { name: 'Collapse the upload queue' });
    expect(await uncovered(collapseButton)).toBe(true);
    // A click that a covering banner would take (playwright waits for the button to be hit).
    await collapseButton.click({ timeout: 5_000 });
    await queue(page).waitFor({ state: 'hidden' });
    // The ring that opens it again is in reach too.
    expect(await uncovered(ring(page))).toBe(true);
    await ring(page).click({ timeout: 5_000 });
    await queue(page).waitFor();

    await page.context().setOffline(false);
    await expect.poll(() => statusOf(page, 'Rushes'), { timeout: 60_000 }).toBe('Completed');
  });
});
