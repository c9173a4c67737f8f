import { api } from '@filerunner/protocol';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { logIn } from './pages';
import { answerPickerWith } from './picked-folder';
import { demoSender } from './sent-package';

// The download queue's panel as a person sees it in Chromium: one download at a time with its
// percent, the others Queued with their actions, a refused one Failed in red with its four
// ways out, and Retry putting it back (Retrying, in amber) ahead of what was queued before it.
// Transfers are slowed by the browser's network throttling so each state can be seen.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';
const MiB = 1024 * 1024;
const product = productOfFile();

const filled = (size: number, seed: number) => Buffer.alloc(size, seed);
const packages = {
  first: { name: 'First reel', files: [{ path: 'a.bin', bytes: filled(24 * MiB, 1) }] },
  gone: { name: 'Withdrawn cut', files: [{ path: 'b.txt', bytes: filled(2000, 2) }] },
  second: {
    name: 'Second reel',
    files: Array.from({ length: 4 }, (_, i) => ({
      path: `c${i}.bin`,
      bytes: filled(4 * MiB, 3 + i),
    })),
  },
  last: { name: 'Last notes', files: [{ path: 'd.txt', bytes: filled(1000, 9) }] },
};
let goneSlug: string;

beforeAll(async () => {
  const sender = await demoSender(product.server.url, SENDER);
  for (const [key, pkg] of Object.entries(packages)) {
    const slug = await sender.send({ recipients: [RITA], message: '', ...pkg });
    if (key === 'gone') goneSlug = slug;
  }
});

/** The colour of a download's status as rendered, as [r, g, b]. */
async function statusColour(item: Locator): Promise<[number, number, number]> {
  const css = await item.getByTestId('upload-status').evaluate((e) => getComputedStyle(e).color);
  const [r, g, b] = css.match(/\d+/g)!.map(Number);
  return [r!, g!, b!];
}

const buttonsOf = async (item: Locator) =>
  (await item.getByRole('button').allInnerTexts()).map((text) => text.trim());

/** Opens a received package from the Inbox list and unpacks it into the picked folder. */
async function unpack(page: Page, name: string) {
  await page.getByRole('list', { name: 'Received packages' }).getByText(name).click();
  const detail = page.getByRole('region', { name: 'Package details' });
  await detail.getByRole('heading', { name }).waitFor();
  await detail.getByRole('button', { name: 'Download All' }).click();
  await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
}

describe('the download queue panel', () => {
  it(
    'shows each status with its actions and colour; Retry goes ahead of the queue',
    { timeout: 300_000 },
    async () => {
      const context = await product.browser.newContext();
      await answerPickerWith(context, 'Panel');
      const page = await context.newPage();
      await logIn(page, product.server.url, RITA, DEMO_PASSWORD);
      await page.waitForURL((url) => url.pathname === '/inbox');
      await page.getByRole('list', { name: 'Received packages' }).getByText('Last notes').waitFor();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: 1_000_000,
        uploadThroughput: -1,
      });

      for (const pkg of Object.values(packages)) await unpack(page, pkg.name);
      // The sender withdraws one queued download's package from Rita before its turn comes.
      const sender = await apiLogin(product.server.url, SENDER, DEMO_PASSWORD);
      const sent = await sender.call(api.inbox.sent, { params: { slug: goneSlug } });
      const rita = sent.recipients.find((r) => r.email === RITA)!;
      await sender.call(api.inbox.removeRecipient, { params: { slug: goneSlug, userId: rita.id } });

      await page.getByRole('button', { name: /^Download queue:/ }).click();
      const list = page.getByRole('dialog', { name: 'Download queue' }).getByRole('list', {
        name: 'Downloads',
      });
      const item = (name: string) => list.getByRole('listitem', { name });
      const status = (name: string) => item(name).getByTestId('upload-status').innerText();
      const first = item('First reel');
      const gone = item('Withdrawn cut');
      const second = item('Second reel');
      const last = item('Last notes');

      // One at a time: the first downloading with its percent and only Cancel; the rest queued.
      await expect.poll(() => status('First reel')).toMatch(/^Downloading \d+%$/);
      expect(await buttonsOf(first)).toEqual(['Cancel']);
      for (const queued of [gone, second, last]) {
        expect(await queued.getByTestId('upload-status').innerText()).toBe('Queued');
        expect(await buttonsOf(queued)).toEqual(['Select download folder', 'Cancel']);
      }
      const [qr, qg, qb] = await statusColour(last);
      // Queued is neutral grey.
      expect(Math.max(qr, qg, qb) - Math.min(qr, qg, qb)).toBeLessThan(30);

      // Refused when its turn came: Failed, in red, with the server's reason and four ways out.
      await expect.poll(() => status('Withdrawn cut'), { timeout: 120_000 }).toBe('Failed');
      expect(await status('First reel')).toBe('Completed');
      expect(await buttonsOf(first)).toEqual([]);
      await gone
        .getByText(
          'The sender has removed your access to the package. You can no longer download or view the file information',
        )
        .waitFor();
      expect(await buttonsOf(gone)).toEqual([
        'Retry',
        'Standard browser download',
        'Download to new folder',
        'Cancel',
      ]);
      const [fr, fg, fb] = await statusColour(gone);
      expect(fr).toBeGreaterThan(fg + 80);
      expect(fr).toBeGreaterThan(fb + 80);

      // While the second reel downloads, Retry puts the failed one back ahead of Last notes.
      await expect.poll(() => status('Second reel'), { timeout: 60_000 }).toMatch(/^Downloading/);
      await gone.getByRole('button', { name: 'Retry' }).click();
      expect(await status('Withdrawn cut')).toBe('Retrying');
      const [rr, rg, rb] = await statusColour(gone);
      // Amber: red and green well above blue.
      expect(rr).toBeGreaterThan(rb + 80);
      expect(rg).toBeGreaterThan(rb + 40);
      const order = await list
        .getByRole('listitem')
        .evaluateAll((items) => items.map((i) => i.querySelector('h3')?.textContent));
      expect(order.indexOf('Withdrawn cut')).toBeLessThan(order.indexOf('Last notes'));
      expect(await buttonsOf(gone)).toEqual(['Select download folder', 'Cancel']);

      // It runs before Last notes: refused again while Last notes still waits its turn.
      await expect.poll(() => status('Withdrawn cut'), { timeout: 120_000 }).toBe('Failed');
      expect(await status('Last notes')).toBe('Queued');

      // Cancel takes a queued download out of the queue.
      await last.getByRole('button', { name: 'Cancel' }).click();
      await last.waitFor({ state: 'detached' });
      await context.close();
    },
  );
});
