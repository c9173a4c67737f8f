import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  apiLogin,
  DEMO_PASSWORD,
  demoSettings,
  productOfFile,
  readMails,
  waitForMailLink,
} from './harness';
import { freshPage, logIn, see, signedIn } from './pages';
import { answerPickerWith, readPicked } from './picked-folder';
import { sendDemoPackage } from './sent-package';

// Receiving and following up, as people do it: the sender's package (sent by the upload engine)
// reaches Rita's Inbox, she opens it and downloads a file and the whole package; the sender
// opens Sent, sees Rita's download, and removes Ada, who then finds her access gone; then adds a
// partner by address, who is mailed a link, and gives Rita a new mobile for her PINs.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';
const ADA = 'admin@example.com';

let slug: string;

const product = productOfFile();

/** Deterministic bytes, different per seed, so a mixed-up file shows. */
function bytesOf(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return out;
}

const files = [
  { path: 'Reel 1/notes.txt', bytes: Buffer.from('Dailies: scene 4, takes 2 and 5.\n') },
  { path: 'Reel 1/frame_0001.dpx', bytes: bytesOf(48_000, 1) },
];

/** The sender sends `files` to Rita and Ada with the upload engine, as the Share screen would. */
function sendPackage(): Promise<string> {
  return sendDemoPackage(product.server.url, {
    sender: SENDER,
    recipients: [RITA, ADA],
    name: 'Reel 1 dailies',
    message: 'Takes 2 and 5 for review',
    files,
  });
}

/** Download All by the browser's own download (the options menu); its name and bytes. */
async function browserDownloadAll(page: Page) {
  await page.getByRole('button', { name: 'Download All' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Standard browser download' }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

/** Waits until the download queue's ring says `count` downloads, all done. */
async function queueDone(page: Page, count: number) {
  const ring = page.getByRole('button', { name: /^Download queue:/ });
  const label = `Download queue: ${count} download${count === 1 ? '' : 's'}, 100%`;
  await expect.poll(() => ring.getAttribute('aria-label'), { timeout: 30_000 }).toBe(label);
}

beforeAll(async () => {
  slug = await sendPackage();
});

describe('receiving a package', () => {
  it('reaches the Inbox: the recipient opens it and downloads a file and the whole package', async () => {
    const page = await signedIn(product, RITA);
    await page.waitForURL((url) => url.pathname === '/inbox');
    const list = page.getByRole('list', { name: 'Received packages' });
    await list.getByText('Reel 1 dailies').waitFor();
    // The newest package opens by itself, and is seen from then on.
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Reel 1 dailies' }).waitFor();
    await see(page, 'Takes 2 and 5 for review');
    await see(page, 'Sent by Sam Sender');
    await expect
      .poll(() => list.getByTestId('package-row').first().getAttribute('data-unseen'))
      .toBeNull();
    await expect.poll(() => page.getByLabel(/unseen packages/).count()).toBe(0);

    await detail.getByText('Reel 1/notes.txt').waitFor();
    // One file through the engine, saved whole into the folder picked at the click.
    await answerPickerWith(page, 'Dailies');
    await page.getByRole('button', { name: 'Download Reel 1/frame_0001.dpx' }).click();
    await queueDone(page, 1);
    const one = await readPicked(page, 'Dailies', 'frame_0001.dpx');
    expect(one?.equals(files[1]!.bytes)).toBe(true);

    const all = await browserDownloadAll(page);
    expect(all.name).toMatch(/\.tar$/);
    // The tar holds each file's bytes whole, after its header.
    for (const f of files) expect(all.bytes.includes(f.bytes)).toBe(true);
    await page.context().close();
  });

  it('shows the sender the recipients, and removes one after confirmation', async () => {
    const page = await signedIn(product, SENDER);
    await page.goto(`${product.server.url}/sent`);
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Reel 1 dailies' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sent');

    const rita = detail.getByRole('listitem', { name: 'Rita Recipient' });
    const ada = detail.getByRole('listitem', { name: 'Ada Admin' });
    await expect.poll(() => rita.getByTestId('download-status').innerText()).toBe('Downloaded');
    await rita.getByRole('button', { name: /^History/ }).click();
    await expect.poll(() => rita.getByRole('row').count()).toBeGreaterThan(1);
    expect(await ada.getByTestId('download-status').innerText()).toBe('Not downloaded');

    await ada.getByRole('button', { name: 'Remove Ada Admin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Remove Ada Admin's access/).waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await see(page, 'Recipients were removed from your package.');
    await expect.poll(() => ada.getAttribute('data-removed')).toBe('true');
    expect(await ada.getByRole('button', { name: 'Remove Ada Admin' }).isDisabled()).toBe(true);
    expect(await rita.getByRole('button', { name: 'Remove Rita Recipient' }).isDisabled()).toBe(
      false,
    );
    await page.context().close();

    // Ada's link now opens a warning and no files.
    const adas = await signedIn(product, ADA);
    await adas.goto(`${product.server.url}/inbox/${slug}`);
    await see(
      adas,
      'The sender has removed your access to the package. You can no longer download or view the file information',
    );
    expect(await adas.getByRole('list', { name: 'Files' }).count()).toBe(0);
    await adas.context().close();
  });

  it('adds a recipient by address, who gets the link by mail, and updates a mobile', async () => {
    const admin = await apiLogin(product.server.url, ADA, DEMO_PASSWORD);
    await admin.call(api.contracts.updateSettings, demoSettings({ can_add_ad_hoc: true }));
    const mailsBefore = (await readMails(product.site)).length;
    try {
      const page = await freshPage(product.browser);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
      await page.goto(`${product.server.url}/sent/${slug}`);
      const detail = page.getByRole('region', { name: 'Package details' });
      await detail.getByRole('heading', { name: 'Reel 1 dailies' }).waitFor();

      await detail.getByRole('button', { name: 'Add recipients' }).click();
      const adding = page.getByRole('dialog', { name: 'Add recipients' });
      await adding.getByRole('combobox', { name: 'Recipients' }).fill('grader@post.test');
      await page.getByRole('option', { name: 'Add grader@post.test' }).click();
      await adding.getByRole('button', { name: 'Add', exact: true }).click();
      await see(page, /^Recipients were added to your package\./);
      await detail.getByRole('listitem', { name: 'grader@post.test' }).waitFor();
      // A new person has no account: the mail carries the external link with its key.
      const link = await waitForMailLink(
        product.site,
        'grader@post.test',
        '/inbox/external/',
        mailsBefore,
      );
      expect(link).toContain(`/inbox/external/${slug}?key=`);

      const rita = detail.getByRole('listitem', { name: 'Rita Recipient' });
      await rita.getByRole('button', { name: 'Update the mobile of Rita Recipient' }).click();
      const mobile = page.getByRole('dialog', { name: 'Update mobile' });
      // Pasted, as people copy numbers from elsewhere (the Share test types one key by key). The
      // field formats what it is given, so the pasted spaces and dashes do not matter.
      const number = mobile.getByRole('textbox', { name: 'Mobile number' });
      await page.evaluate(() => navigator.clipboard.writeText('+1 202-555-0147'));
      await number.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('ControlOrMeta+V');
      expect(await number.inputValue()).toBe('+1 (202) 555-0147');
      await mobile.getByRole('button', { name: 'Save' }).click();
      await see(page, "The recipient's phone number for this package has been updated.");
      await expect.poll(() => rita.innerText()).toContain('+12025550147');
      await page.context().close();
    } finally {
      await admin.call(api.contracts.updateSettings, demoSettings({ can_add_ad_hoc: false }));
    }
  });
});
