import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { productOfFile } from './harness';
import { signedIn } from './pages';
import { demoSender } from './sent-package';
import { patternBytes } from './transfer-browser/pattern';

// What a recipient sees in the transfer panel when a download into a folder goes wrong, with
// real causes only: a stored object changed on the server's disk after it was sent (caught by
// the xxh128 check and named), the origin's storage quota smaller than the package (a real
// QuotaExceededError), and the picked folder deleted before the download writes. The folder is one
// of the origin-private file system (headless Chromium cannot answer the native picker; the
// interface is the same).

const RITA = 'recipient@example.com';
const MiB = 1024 * 1024;

const product = productOfFile();

const clean = { path: 'Plates/clean.bin', bytes: Buffer.from(patternBytes(0, 300_000, 11)) };
const tampered = { path: 'Plates/tampered.bin', bytes: Buffer.from(patternBytes(0, 300_000, 12)) };
const slugs = { tampered: '', large: '', gone: '' };

beforeAll(async () => {
  const sender = await demoSender(product.server.url, 'sender@example.com');
  const common = { recipients: [RITA], message: '' };
  slugs.tampered = await sender.send({ ...common, name: 'Plates', files: [clean, tampered] });
  slugs.large = await sender.send({
    ...common,
    name: 'Camera originals',
    files: [{ path: 'A001/C001.mov', bytes: Buffer.from(patternBytes(0, 8 * MiB, 21)) }],
  });
  slugs.gone = await sender.send({
    ...common,
    name: 'Dailies',
    files: [{ path: 'Day 1/roll.mov', bytes: Buffer.from(patternBytes(0, 2 * MiB, 31)) }],
  });
});

/** Every regular file under `dir`, however deep. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

/**
 * Changes one byte of a stored file where the embedded store keeps it on disk (its own object,
 * or its place in a slab), as a failing disk or a hand on the server would; sizes stay the same.
 */
async function tamperStored(bytes: Buffer): Promise<void> {
  for (const file of await filesUnder(product.site.dataDir)) {
    const { size } = await stat(file);
    if (size < bytes.length || size > 64 * MiB) continue;
    const handle = await open(file, 'r+');
    try {
      const content = Buffer.alloc(size);
      await handle.read(content, 0, size, 0);
      const at = content.indexOf(bytes);
      if (at < 0) continue;
      const position = at + 1000;
      await handle.write(Buffer.from([content[position]! ^ 0xff]), 0, 1, position);
      return;
    } finally {
      await handle.close();
    }
  }
  throw new Error('the stored object was not found under the data folder');
}

/** Rita on the package's page, with optimised download on and the picker answering `folder`. */
async function ritaOn(slug: string, folder: string): Promise<Page> {
  const page = await signedIn(product, RITA);
  await page.goto(`${product.server.url}/inbox/${slug}`);
  await page
    .getByRole('region', { name: 'Package details' })
    .getByRole('button', { name: 'Download All' })
    .waitFor();
  await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    const picked = await root.getDirectoryHandle(name, { create: true });
    Object.assign(window, { showDirectoryPicker: async () => picked });
  }, folder);
  return page;
}

async function unpackAll(page: Page) {
  await page.getByRole('button', { name: 'Download All' }).click();
  await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
}

/** The download's entry in the opened queue, once it has ended (a failed one stays listed). */
async function queueItem(page: Page, name: string) {
  await page.getByRole('button', { name: /^Download queue:/ }).click();
  const item = page.getByRole('dialog', { name: 'Download queue' }).getByRole('listitem', { name });
  const status = item.getByTestId('upload-status');
  await expect
    .poll(() => status.innerText(), { timeout: 60_000 })
    .toMatch(/^(Completed|Failed|Partially Failed)$/);
  return item;
}

/** The panel's colours: MUI's warning (amber) and error (red). */
const WARNING = 'rgb(237, 108, 2)';
const ERROR = 'rgb(211, 47, 47)';
const colourOf = (item: ReturnType<Page['getByRole']>) =>
  item.getByTestId('upload-status').evaluate((el) => getComputedStyle(el).color);

/** The names of a status's buttons, and whether each can be pressed. */
async function buttonsOf(item: ReturnType<Page['getByRole']>) {
  const buttons = item.getByRole('button');
  const out: string[] = [];
  for (let i = 0; i < (await buttons.count()); i++) {
    const button = buttons.nth(i);
    const label = (await button.innerText()).trim();
    out.push((await button.isDisabled()) ? `${label} (disabled)` : label);
  }
  return out;
}

describe('a download into a folder that goes wrong, as the panel shows it', () => {
  it('names the file whose stored bytes changed, fails it alone and keeps the rest', async () => {
    await tamperStored(tampered.bytes);
    const page = await ritaOn(slugs.tampered, 'Checked');
    await unpackAll(page);
    const item = await queueItem(page, 'Plates');

    expect(await item.getByTestId('upload-status').innerText()).toBe('Partially Failed');
    expect(await colourOf(item)).toBe(WARNING);
    const alert = item.getByRole('alert');
    expect(await alert.innerText()).toContain(
      '1 file failed to download. The other files are in the folder.',
    );
    await alert.getByRole('button', { name: 'View files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Files that failed in Plates' });
    const listed = dialog.getByRole('list', { name: 'Failed files' });
    expect(await listed.getByRole('listitem').count()).toBe(1);
    expect(await listed.innerText()).toContain(
      "Plates/tampered.bin is not what was sent: its xxh128 does not match the sender's.",
    );

    // The good file is in the folder as sent; the bad one is not left there.
    const landed = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const plates = await (await root.getDirectoryHandle('Checked')).getDirectoryHandle('Plates');
      const names: string[] = [];
      for await (const name of (plates as unknown as { keys(): AsyncIterable<string> }).keys())
        names.push(name);
      const file = await (await plates.getFileHandle('clean.bin')).getFile();
      return { names, clean: [...new Uint8Array(await file.arrayBuffer())] };
    });
    expect(landed.names).toEqual(['clean.bin']);
    expect(Buffer.from(landed.clean).equals(clean.bytes)).toBe(true);
    await page.context().close();
  });

  it('says the disk is full, with another folder as the way out', async () => {
    const page = await ritaOn(slugs.large, 'Small disk');
    const cdp = await page.context().newCDPSession(page);
    // The origin's storage made smaller than the package: the folder's writes meet a real
    // QuotaExceededError.
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: product.server.url,
      quotaSize: 2 * MiB,
    });
    try {
      await unpackAll(page);
      const item = await queueItem(page, 'Camera originals');
      expect(await item.getByTestId('upload-status').innerText()).toBe('Failed');
      expect(await colourOf(item)).toBe(ERROR);
      const alert = item.locator('[data-error-class="DownloadQuotaExceededError"]');
      expect(await alert.innerText()).toContain(
        'There is not enough disk space to download to the selected folder. Please free up some space or choose another folder.',
      );
      expect(await buttonsOf(item)).toEqual([
        'Retry',
        'Standard browser download',
        'Download to new folder',
        'Cancel',
      ]);
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin: product.server.url });
    }
    await page.context().close();
  });

  it('says the picked folder can no longer be reached once it is deleted, and offers no retry into it', async () => {
    const page = await ritaOn(slugs.gone, 'Doomed');
    // The person picks the folder, and it is deleted before the download writes into it (by
    // them in another window, or by a sync tool): its handle points nowhere.
    await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const picked = await root.getDirectoryHandle('Doomed');
      Object.assign(window, {
        showDirectoryPicker: async () => {
          await root.removeEntry('Doomed', { recursive: true });
          return picked;
        },
      });
    });
    await unpackAll(page);
    const item = await queueItem(page, 'Dailies');
    expect(await item.getByTestId('upload-status').innerText()).toBe('Failed');
    expect(await colourOf(item)).toBe(ERROR);
    const alert = item.locator('[data-error-class="DirectoryHandleInvalidError"]');
    expect(await alert.innerText()).toContain(
      'The selected folder is no longer accessible. Please choose a valid folder.',
    );
    expect(await buttonsOf(item)).toEqual([
      'Retry (disabled)',
      'Standard browser download',
      'Download to new folder',
      'Cancel',
    ]);
    await page.context().close();
  });
});
