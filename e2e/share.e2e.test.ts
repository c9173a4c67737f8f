import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  apiLogin,
  type ApiSession,
  DEMO_PASSWORD,
  demoSettings,
  productOfFile,
  readMails,
  runAdmin,
  waitForMailLink,
} from './harness';
import { freshPage, logIn, see } from './pages';

// The demo sender on the Share screen: the form's messages in order, PIN mobiles and ad-hoc
// addresses, a folder of 10,000 files, and a send through the transfer engine that reaches the
// recipient. Each test opens the screen on a fresh browser context.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';

let page: Page;
/** The demo contract's admin, for its settings. */
let admin: ApiSession;
let folders: string;

const product = productOfFile();

beforeAll(async () => {
  admin = await apiLogin(product.server.url, 'admin@example.com', DEMO_PASSWORD);
  folders = await mkdtemp(path.join(tmpdir(), 'filerunner-share-'));
});

beforeEach(async () => {
  page = await freshPage(product.browser);
  await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
  await page.goto(`${product.server.url}/share`);
  await page.getByRole('button', { name: 'Send Package' }).waitFor();
});

afterAll(async () => {
  if (folders) await rm(folders, { recursive: true, force: true });
});

/** A folder on disk with `count` small files spread over subfolders: `name/part-NN/frame_NNNNN.dpx`. */
async function folderOfFrames(name: string, count: number, perFolder = 500): Promise<string> {
  const root = path.join(folders, name);
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, `part-${String(Math.floor(i / perFolder) + 1).padStart(2, '0')}`);
    if (i % perFolder === 0) await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `frame_${String(i).padStart(5, '0')}.dpx`), `frame ${i}\n`);
  }
  return root;
}

const sendButton = () => page.getByRole('button', { name: 'Send Package' });
const problem = () => page.getByTestId('send-problem');
const recipientsBox = () => page.getByRole('combobox', { name: 'Recipients' });
const folderInput = () => page.getByLabel('Folder to send');
const fileCount = () => page.getByTestId('selected-file-count').innerText();

async function chooseRecipient(typed: string, option: string | RegExp) {
  await recipientsBox().fill(typed);
  await page.getByRole('option', { name: option }).click();
}

async function contractSettings(settings: Record<string, unknown>) {
  await admin.call(api.contracts.updateSettings, demoSettings(settings));
}

describe('the Share screen', () => {
  it('tells the sender what is missing in order, and only then allows Send Package', async () => {
    await expect.poll(() => problem().innerText()).toBe('Please select some recipients');
    expect(await sendButton().isDisabled()).toBe(true);

    // Ad-hoc recipients are off in the demo contract: an unknown address finds nobody.
    await recipientsBox().fill('partner@external.test');
    await see(page, 'No options found');
    await chooseRecipient('Rita', /Rita Recipient/);
    await expect.poll(() => problem().innerText()).toBe('Please select some files');

    await folderInput().setInputFiles(await folderOfFrames('Reel', 12));
    await expect.poll(fileCount).toBe('12 files, 98 bytes');
    await expect.poll(() => problem().innerText()).toBe('Please enter a name for the package');
    expect(await sendButton().isDisabled()).toBe(true);

    await page.getByRole('textbox', { name: 'Package name' }).fill('Reel 1');
    await expect.poll(() => problem().count()).toBe(0);
    expect(await sendButton().isDisabled()).toBe(false);
  });

  it('refuses a package larger than the contract allows, in sizes, shown in Settings', async () => {
    // The operator's command runs beside the running server, on its database.
    await runAdmin(product.site, ['set-quotas', '--slug', 'demo', '--max-package-size', '50']);
    try {
      await chooseRecipient('Rita', /Rita Recipient/);
      await folderInput().setInputFiles(await folderOfFrames('Dailies', 12));
      await expect.poll(fileCount).toBe('12 files, 98 bytes');
      await page.getByRole('textbox', { name: 'Package name' }).fill('Dailies');
      await sendButton().click();
      await see(
        page,
        'This package is larger than your contract allows: a package can be at most 50 bytes ' +
          'and this one is 98 bytes.',
      );

      const adminPage = await freshPage(product.browser);
      await logIn(adminPage, product.server.url, 'admin@example.com', DEMO_PASSWORD);
      await adminPage.goto(`${product.server.url}/settings/demo/general`);
      const limits = adminPage.getByRole('region', { name: 'Storage limits' });
      await expect
        .poll(() => limits.innerText())
        .toMatch(/Storage quota\s+Unlimited\s+Largest package\s+50 bytes\s+Storage used\s+\d/);
      await adminPage.context().close();
    } finally {
      await runAdmin(product.site, [
        'set-quotas',
        '--slug',
        'demo',
        '--max-package-size',
        'unlimited',
      ]);
    }
  });

  it('refuses a start weeks ahead: the package would outlast its 15 days of storage', async () => {
    await chooseRecipient('Rita', /Rita Recipient/);
    await folderInput().setInputFiles(await folderOfFrames('Later', 2));
    await page.getByRole('textbox', { name: 'Package name' }).fill('Later');
    await expect.poll(() => problem().count()).toBe(0);
    // The page's own dates, days ahead, as its date inputs take them.
    const daysAhead = (days: number) =>
      page.evaluate((d) => {
        const at = new Date(Date.now() + d * 86_400_000);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
      }, days);
    const start = page.getByLabel('Start date');
    const end = page.getByLabel('End date');
    // The pickers offer nothing past the storage limit...
    expect(await start.getAttribute('max')).toBe(await daysAhead(15));
    // ...and a date typed past it is refused on sending, by the form and by the server alike.
    await start.fill(await daysAhead(23));
    await end.fill(await daysAhead(25));
    const created: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/packages/create/')) created.push(r.status());
    });
    await sendButton().click();
    await see(
      page,
      'The access period must end within 15 days from now: packages are stored for at most 15 days.',
    );
    expect(await page.getByTestId('sent-status').count()).toBe(0);
    expect(created).toEqual([]);
  });

  it('takes ad-hoc addresses where allowed and asks for their mobile for a PIN', async () => {
    await contractSettings({ can_add_ad_hoc: true, pin_verification: 'adhoc' });
    try {
      await page.reload();
      await recipientsBox().fill('partner@');
      await see(page, 'New user? Enter valid email to add.');
      await chooseRecipient('Partner@External.test', 'Add partner@external.test');
      await chooseRecipient('Rita', /Rita Recipient/);
      await folderInput().setInputFiles(await folderOfFrames('Stills', 2));
      await page.getByRole('textbox', { name: 'Package name' }).fill('Stills');
      await expect.poll(() => problem().count()).toBe(0);

      // Only the new user, who has no account, needs a mobile for the PIN.
      await page.getByRole('switch', { name: 'PIN verification' }).check();
      await expect
        .poll(() => problem().innerText())
        .toBe('Please add a mobile phone number for the highlighted users for PIN verification');
      const highlighted = page.locator('[data-missing-mobile]');
      await expect.poll(() => highlighted.innerText()).toContain('partner@external.test');
      expect(await highlighted.count()).toBe(1);
      expect(await sendButton().isDisabled()).toBe(true);

      const mobile = page.getByRole('textbox', { name: 'Mobile for partner@external.test' });
      await mobile.fill('');
      await mobile.pressSequentially('+12025550123');
      await expect.poll(() => highlighted.count()).toBe(0);
      await expect.poll(() => problem().count()).toBe(0);
      expect(await sendButton().isDisabled()).toBe(false);
    } finally {
      await contractSettings({ can_add_ad_hoc: false, pin_verification: 'none' });
    }
  });

  it('flags problem names: the first 100 listed with the total, copied as CSV, removed', async () => {
    const root = path.join(folders, 'Takes');
    await mkdir(root, { recursive: true });
    for (let i = 0; i < 150; i++) await writeFile(path.join(root, `take?${i}.mov`), 'take');
    await writeFile(path.join(root, 'good 1.mov'), 'good');
    await writeFile(path.join(root, 'good 2.mov'), 'good');
    await writeFile(path.join(root, '.DS_Store'), 'finder');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

    await folderInput().setInputFiles(root);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Showing the first 100 of 151 files.').waitFor();
    const table = dialog.getByRole('table', { name: 'Problem files' });
    expect(await table.getByRole('row').count()).toBe(101);
    await table
      .getByRole('row', { name: /Takes\/take\?0\.mov/ })
      .getByText(
        'Invalid path segment "take?0.mov": Filename contains invalid characters or patterns',
      )
      .waitFor();

    await dialog.getByRole('button', { name: 'Copy as CSV' }).click();
    await dialog.getByText('Copied to the clipboard').waitFor();
    const csv = (await page.evaluate(() => navigator.clipboard.readText())).trim().split('\r\n');
    expect(csv[0]).toBe('Type,Filename,Filepath,Description');
    expect(csv).toHaveLength(152);
    expect(csv).toContain(
      'Excluded,.DS_Store,Takes/.DS_Store,"System file, never sent (.DS_Store, Thumbs.db, ._*, system folders)"',
    );

    await dialog.getByRole('button', { name: 'Remove problem files' }).click();
    await expect.poll(fileCount).toBe('2 files, 8 bytes');
    await see(page, '1 file left out (system files or emoji in the name).');
  });

  it('lists a folder of 10,000 files without freezing the page', async () => {
    const frames = await folderOfFrames('Frames', 10_000);
    // Measured in the page: from the input's change event to the list's count on screen, and
    // the longest time the page could not answer the person (a long task), in all and from the
    // change event on (before it, Chromium itself takes the 10,000 files into the input).
    await folderInput().evaluate((input) => {
      const marks = { changed: 0, listed: 0, longestTaskMs: 0, longestAfterChangeMs: 0 };
      Object.assign(window, { shareMarks: marks });
      input.addEventListener('change', () => (marks.changed = performance.now()));
      new PerformanceObserver((list) => {
        for (const task of list.getEntries()) {
          marks.longestTaskMs = Math.max(marks.longestTaskMs, task.duration);
          // The app's own work starts with the change event; before it the browser reads the pick.
          if (marks.changed && task.startTime >= marks.changed) {
            marks.longestAfterChangeMs = Math.max(marks.longestAfterChangeMs, task.duration);
          }
        }
      }).observe({ type: 'longtask' });
      new MutationObserver((_changes, observer) => {
        if (document.body.innerText.includes('10,000 files')) {
          marks.listed = performance.now();
          observer.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    const started = Date.now();
    await folderInput().setInputFiles(frames);
    await expect.poll(fileCount, { timeout: 60_000 }).toBe('10,000 files, 109 KB');
    const pickedAndListedMs = Date.now() - started;
    const marks = await page.evaluate(
      () => (window as unknown as { shareMarks: Record<string, number> }).shareMarks,
    );

    // Only the rows in view are in the page, and the last file is reached by scrolling.
    const list = page.getByRole('list', { name: 'Selected files' });
    expect(await list.getByRole('listitem').count()).toBeLessThan(60);
    const scrollStarted = Date.now();
    await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await list.getByText('Frames/part-20/frame_09999.dpx').waitFor();
    const figures = {
      pickedAndListedMs,
      changeToListedMs: Math.round(marks.listed! - marks.changed!),
      longestTaskMs: Math.round(marks.longestTaskMs!),
      longestTaskAfterChangeMs: Math.round(marks.longestAfterChangeMs!),
      scrolledToEndMs: Date.now() - scrollStarted,
    };
    console.log(JSON.stringify({ share_list_10000_files: figures }));
  });

  it('sends a folder picked with handles: it arrives whole and the recipient is mailed', async () => {
    // The folder picker answers with a folder of the origin-private file system, which stands
    // in for the person's disk.
    const written = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const shoot = await root.getDirectoryHandle('Shoot', { create: true });
      const day2 = await shoot.getDirectoryHandle('day 2', { create: true });
      const files: [FileSystemDirectoryHandle, string, number][] = [
        [shoot, 'A001.mov', 3 * 1024 * 1024 + 17],
        [day2, 'notes.txt', 1200],
        [day2, 'frame_0001.dpx', 64 * 1024],
        [shoot, '.DS_Store', 10],
      ];
      const hashes: Record<string, string> = {};
      for (const [folder, name, size] of files) {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i++) bytes[i] = (i * 31 + name.length) & 255;
        const writable = await (
          await folder.getFileHandle(name, { create: true })
        ).createWritable();
        await writable.write(bytes);
        await writable.close();
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        hashes[name] = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
      }
      Object.assign(window, { showDirectoryPicker: async () => shoot });
      return hashes;
    });

    await page.getByRole('button', { name: 'Add folder' }).click();
    await expect.poll(fileCount).toBe('3 files, 3.2 MB');
    await see(page, '1 file left out (system files or emoji in the name).');
    await chooseRecipient('Rita', /Rita Recipient/);
    await page.getByRole('textbox', { name: 'Package name' }).fill('Shoot day 2');
    await page.getByRole('textbox', { name: 'Message' }).fill('Dailies for review');
    const mailsBefore = (await readMails(product.site)).length;
    await sendButton().click();

    await see(page, 'Your package "Shoot day 2" is in the upload queue.');
    // The queue was empty, so it opened over the screen; the sender closes it to see the form.
    await page.getByRole('button', { name: 'Collapse the upload queue' }).click();
    // The form starts afresh for the next package.
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Package name' }).inputValue())
      .toBe('');
    await expect
      .poll(() => page.getByTestId('sent-status').innerText(), { timeout: 60_000 })
      .toBe('Your package has been sent. The recipients have been emailed.');

    const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
    const slug = new URL(link).pathname.split('/').at(-1)!;
    const rita = await apiLogin(product.server.url, RECIPIENT, DEMO_PASSWORD);
    const sha256 = async (filePath: string) => {
      const grant = await rita.call(api.downloads.fileGrant, {
        params: { slug, '*': filePath },
      });
      const bytes = await fetch(new URL(grant.download_url, product.server.url)).then((r) =>
        r.arrayBuffer(),
      );
      return createHash('sha256').update(new Uint8Array(bytes)).digest('hex');
    };
    expect(await sha256('Shoot/A001.mov')).toBe(written['A001.mov']);
    expect(await sha256('Shoot/day 2/notes.txt')).toBe(written['notes.txt']);
    expect(await sha256('Shoot/day 2/frame_0001.dpx')).toBe(written['frame_0001.dpx']);
    await expect(sha256('Shoot/.DS_Store')).rejects.toMatchObject({ status: 404 });
  });

  it('sends small files as a slab read once in the page: each arrives as picked', async () => {
    await contractSettings({ use_slab_files: true });
    try {
      // The screen reads the contract's settings as it opens.
      await page.reload();
      await sendButton().waitFor();
      // 60 frames of a few kB around the tar block size, one of them empty, and a note.
      const written = await page.evaluate(async () => {
        const root = await navigator.storage.getDirectory();
        const reel = await root.getDirectoryHandle('Reel 7', { create: true });
        const files: [string, number][] = Array.from({ length: 60 }, (_, i) => [
          `frame_${String(i).padStart(4, '0')}.dpx`,
          i === 7 ? 0 : 500 + ((i * 977) % 6000),
        ]);
        files.push(['notes.txt', 1200]);
        const hashes: Record<string, string> = {};
        for (const [name, size] of files) {
          const bytes = new Uint8Array(size);
          for (let i = 0; i < size; i++) bytes[i] = (i * 31 + name.length + size) & 255;
          const writable = await (
            await reel.getFileHandle(name, { create: true })
          ).createWritable();
          await writable.write(bytes);
          await writable.close();
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
          hashes[name] = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
        }
        Object.assign(window, { showDirectoryPicker: async () => reel });
        return hashes;
      });

      await page.getByRole('button', { name: 'Add folder' }).click();
      await expect.poll(fileCount).toMatch(/^61 files/);
      await chooseRecipient('Rita', /Rita Recipient/);
      await page.getByRole('textbox', { name: 'Package name' }).fill('Reel 7');
      const mailsBefore = (await readMails(product.site)).length;
      const slabPuts: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (request.method() === 'PUT' && pathname.startsWith('/v1/')) slabPuts.push(pathname);
      });
      await sendButton().click();
      await page.getByRole('button', { name: 'Collapse the upload queue' }).click();
      await expect
        .poll(() => page.getByTestId('sent-status').innerText(), { timeout: 60_000 })
        .toBe('Your package has been sent. The recipients have been emailed.');
      // Every file in one slab object, sent in one request.
      expect(slabPuts).toHaveLength(1);
      expect(slabPuts[0]).toMatch(/\/slabs\/[^/]+\.tar$/);

      const link = await waitForMailLink(product.site, RECIPIENT, '/inbox/', mailsBefore);
      const slug = new URL(link).pathname.split('/').at(-1)!;
      const rita = await apiLogin(product.server.url, RECIPIENT, DEMO_PASSWORD);
      for (const [name, hash] of Object.entries(written)) {
        const grant = await rita.call(api.downloads.fileGrant, {
          params: { slug, '*': `Reel 7/${name}` },
        });
        const bytes = await fetch(new URL(grant.download_url, product.server.url)).then((r) =>
          r.arrayBuffer(),
        );
        expect(createHash('sha256').update(new Uint8Array(bytes)).digest('hex'), name).toBe(hash);
      }
    } finally {
      await contractSettings({ use_slab_files: false });
    }
  });
});
