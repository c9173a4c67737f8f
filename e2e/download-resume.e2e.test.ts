import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, productOfFile } from './harness';
import { logIn } from './pages';
import { answerPickerWith, filesInPicked, sha256OfPicked } from './picked-folder';
import { sendDemoPackage } from './sent-package';

// Resume after a killed tab, in Chromium: a package unpacking into a folder is cut off by its
// page closing mid-download; a new page of the same browser offers it again in the download
// queue, and Retry fetches only what the folder does not hold yet (the engine's ledger in
// IndexedDB), ending with every file as sent.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';
const FOLDER = 'Resumed';
const MiB = 1024 * 1024;

const product = productOfFile();

/** Deterministic bytes, different per seed, so a mixed-up or half-written file shows. */
function bytesOf(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7 + (i >> 10)) & 0xff;
  return out;
}

const files = Array.from({ length: 16 }, (_, i) => ({
  path: `Reel/frame_${String(i).padStart(4, '0')}.dpx`,
  bytes: bytesOf(MiB + i * 1000, i + 1),
}));

beforeAll(async () => {
  await sendDemoPackage(product.server.url, {
    sender: SENDER,
    recipients: [RITA],
    name: 'Long reel',
    message: 'All frames',
    files,
  });
});

/** The package's files already whole in the folder: their paths and the sum of their sizes. */
async function wholeFiles(page: Page) {
  const sizes = new Map(files.map((f) => [f.path.slice('Reel/'.length), f.bytes.length]));
  const landed = (await filesInPicked(page, `${FOLDER}`)).filter(
    (f) => f.path.startsWith('Reel/') && sizes.get(f.path.slice('Reel/'.length)) === f.size,
  );
  return { count: landed.length, bytes: landed.reduce((sum, f) => sum + f.size, 0) };
}

/** How many downloads this browser keeps to offer again (the transfer database's store). */
function keptDownloads(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('filerunner-transfer');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('downloads').objectStore('downloads').count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

describe('a download cut off by its page closing', () => {
  // Three pages, a throttled transfer and a login on a shared 2-core machine take their time.
  it(
    'is offered again by the next page and continues from what is in the folder',
    { timeout: 300_000 },
    async () => {
      const context = await product.browser.newContext();
      await answerPickerWith(context, FOLDER);
      const first = await context.newPage();
      await logIn(first, product.server.url, RITA, DEMO_PASSWORD);
      await first.waitForURL((url) => url.pathname === '/inbox');
      await first.getByRole('heading', { name: 'Long reel' }).waitFor();

      // Slowed to about 1 MB/s (the browser's own network throttling), so the page can be
      // closed while the files are still arriving.
      const cdp = await context.newCDPSession(first);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: 1_000_000,
        uploadThroughput: -1,
      });
      await first.getByRole('button', { name: 'Download All' }).click();
      await first.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
      await expect
        .poll(async () => (await wholeFiles(first)).count, { timeout: 60_000, interval: 250 })
        .toBeGreaterThanOrEqual(5);
      const before = await wholeFiles(first);
      // The ledger is saved every 2 s while files close: give it one save.
      await first.waitForTimeout(3000);
      expect((await wholeFiles(first)).count).toBeLessThan(files.length);
      expect(await keptDownloads(first)).toBe(1);
      await first.close();

      // A new page of the same browser: the queue offers the download again, as Failed.
      const second = await context.newPage();
      const fetched: { bytes: number; total: number } = { bytes: 0, total: 0 };
      second.on('response', (response) => {
        if (response.request().method() !== 'GET' || !response.url().includes('/api/downloads/')) {
          return;
        }
        const headers = response.headers();
        fetched.bytes += Number(headers['content-length'] ?? 0);
        const total = /\/(\d+)$/.exec(headers['content-range'] ?? '')?.[1];
        if (total) fetched.total = Number(total);
      });
      await second.goto(`${product.server.url}/inbox`);
      const ring = second.getByRole('button', { name: /^Download queue:/ });
      await ring.click();
      const item = second
        .getByRole('dialog', { name: 'Download queue' })
        .getByRole('listitem', { name: 'Long reel' });
      await expect.poll(() => item.getByTestId('upload-status').innerText()).toBe('Failed');
      await item
        .getByText(
          'This download stopped when its page was closed. Retry continues from the files already in the folder.',
        )
        .waitFor();
      expect(await item.innerText()).toContain(`Unpacking into ${FOLDER}`);

      await item.getByRole('button', { name: 'Retry' }).click();
      await expect
        .poll(() => item.getByTestId('upload-status').innerText(), { timeout: 60_000 })
        .toBe('Completed');
      // The resumed download earns the sender a signed receipt, as one run whole would: the
      // server counts what the cut responses handed over before the page closed.
      await expect
        .poll(() => item.getByTestId('download-receipted').count(), { timeout: 15_000 })
        .toBe(1);

      // Only what was missing came the second time: at most the tar less the files already whole
      // (plus the short framing gaps the engine fetches along), and well short of the whole tar.
      expect(fetched.total).toBeGreaterThan(files.length * MiB);
      expect(fetched.bytes).toBeGreaterThan(0);
      expect(fetched.bytes).toBeLessThanOrEqual(fetched.total - before.bytes + 64 * 1024);
      expect(fetched.bytes).toBeLessThan(fetched.total);
      console.log(
        `resumed: ${before.count} of ${files.length} files whole before the cut; fetched ${fetched.bytes} of ${fetched.total} bytes the second time`,
      );

      for (const file of files) {
        expect(await sha256OfPicked(second, FOLDER, file.path), file.path).toBe(
          createHash('sha256').update(file.bytes).digest('hex'),
        );
      }
      // Nothing left to offer a later page: the kept download is gone from IndexedDB.
      await expect.poll(() => keptDownloads(second)).toBe(0);
      await context.close();
    },
  );
});
