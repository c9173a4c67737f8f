import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import { apiLogin, DEMO_PASSWORD, startProduct, stopProduct, type RunningServer } from './harness';
import { freshPage, logIn, see } from './pages';

// FileRunner Settings, the hidden dialog (Alt+Shift+C): it opens on any page, signed in or not,
// and "Always use slab files" sends the next package's small files as one slab even though the
// project's setting is off.

const SENDER = 'sender@example.com';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startProduct());
});

afterAll(() => stopProduct({ server, browser }));

const settingsDialog = (page: Page) => page.getByRole('dialog', { name: 'FileRunner Settings' });
const slabSwitch = (page: Page) =>
  settingsDialog(page).getByRole('switch', { name: 'Always use slab files' });

/**
 * The storage writes the page makes, by method and object path: FormPost batches are POSTs,
 * slabs (and large-file segments) are PUTs.
 */
function storageWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/v1/') && ['POST', 'PUT'].includes(request.method())) {
      writes.push(`${request.method()} ${pathname}`);
    }
  });
  return writes;
}

/** Sends `count` small files from a folder of the origin-private file system as `name`. */
async function sendSmallFiles(page: Page, name: string, count: number) {
  await page.evaluate(
    async ({ name, count }) => {
      const root = await navigator.storage.getDirectory();
      const folder = await root.getDirectoryHandle(name, { create: true });
      for (let i = 0; i < count; i++) {
        const writable = await (
          await folder.getFileHandle(`frame_${i}.dpx`, { create: true })
        ).createWritable();
        await writable.write(new Uint8Array(700 + i).fill(i));
        await writable.close();
      }
      Object.assign(window, { showDirectoryPicker: async () => folder });
    },
    { name, count },
  );
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect
    .poll(() => page.getByTestId('selected-file-count').innerText())
    .toMatch(/^\d+ files/);
  await page.getByRole('combobox', { name: 'Recipients' }).fill('Rita');
  await page.getByRole('option', { name: /Rita Recipient/ }).click();
  await page.getByRole('textbox', { name: 'Package name' }).fill(name);
  await page.getByRole('button', { name: 'Send Package' }).click();
  await see(page, `Your package "${name}" is in the upload queue.`);
  await expect
    .poll(() => page.getByTestId('sent-status').innerText(), { timeout: 60_000 })
    .toBe('Your package has been sent. The recipients have been emailed.');
}

describe('the hidden settings dialog', () => {
  it('opens with Alt+Shift+C before signing in; Alt+Shift+P toggles optimised download', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.keyboard.press('Alt+Shift+C');
    const dialog = settingsDialog(page);
    await dialog.waitFor();
    await dialog.getByText(/can affect the speed and reliability/).waitFor();
    for (const section of ['Upload settings', 'Download settings', 'Chunk download settings']) {
      await dialog.getByRole('region', { name: section, exact: true }).waitFor();
    }
    await page.keyboard.press('Alt+Shift+C');
    await dialog.waitFor({ state: 'hidden' });

    // On by default (Chromium can pick a folder): support's switch turns it off, then on.
    await page.keyboard.press('Alt+Shift+P');
    await see(page, 'Optimised Download has been disabled');
    await page.keyboard.press('Alt+Shift+P');
    await see(page, 'Optimised Download has been enabled');
    await page.context().close();
  });

  it('"Always use slab files" packs the next upload into a slab though the project says FormPost', async () => {
    // The demo project keeps slabs off.
    const admin = await apiLogin(server.url, 'admin@example.com', DEMO_PASSWORD);
    const contracts = await admin.call(api.contracts.list);
    expect(contracts.find((c) => c.slug === 'demo')?.settings.use_slab_files).toBe(false);

    const page = await freshPage(browser);
    await logIn(page, server.url, SENDER, DEMO_PASSWORD);
    await page.goto(`${server.url}/share`);
    const writes = storageWrites(page);

    // As the project says: one FormPost for the batch of small files.
    await sendSmallFiles(page, 'Reel 1', 8);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^POST \/v1\//);
    await page.getByRole('button', { name: 'Collapse the upload queue' }).click();

    await page.keyboard.press('Alt+Shift+C');
    await slabSwitch(page).check();
    await settingsDialog(page).getByRole('button', { name: 'Close' }).click();
    await settingsDialog(page).waitFor({ state: 'hidden' });
    // Kept in this browser: still on after a reload.
    await page.reload();
    await page.getByRole('button', { name: 'Send Package' }).waitFor();
    await page.keyboard.press('Alt+Shift+C');
    expect(await slabSwitch(page).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await settingsDialog(page).waitFor({ state: 'hidden' });

    writes.length = 0;
    await sendSmallFiles(page, 'Reel 2', 8);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^PUT \/v1\/.*\/slabs\/[^/]+\.tar$/);
    await page.context().close();
  });
});
