import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { DEMO_PASSWORD, startProduct, stopProduct, type RunningServer } from './harness';
import { freshPage, logIn } from './pages';

// The demo recipient has the app open while the demo sender sends a package on the Share
// screen: the package shows in the open Inbox and the unseen badge counts it, with no reload.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';

let server: RunningServer;
let browser: Browser;
let folders: string;

beforeAll(async () => {
  ({ server, browser } = await startProduct());
  folders = await mkdtemp(path.join(tmpdir(), 'filerunner-realtime-'));
});

afterAll(async () => {
  await stopProduct({ server, browser });
  if (folders) await rm(folders, { recursive: true, force: true });
});

/** The recipient signed in on `screen`, with the app's realtime socket open. */
async function recipientOn(screen: string): Promise<{ page: Page; socket: WebSocket }> {
  const page = await freshPage(browser);
  await logIn(page, server.url, RECIPIENT, DEMO_PASSWORD);
  // The socket of the screen loaded next (the one after login closes with its document).
  const socket = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/api/ws'));
  await page.goto(`${server.url}${screen}`);
  // Marks this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));
  return { page, socket: await socket };
}

async function sendPackage(name: string): Promise<void> {
  const root = path.join(folders, name);
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, 'cut.txt'), 'the final cut\n');
  const page = await freshPage(browser);
  await logIn(page, server.url, SENDER, DEMO_PASSWORD);
  await page.goto(`${server.url}/share`);
  await page.getByRole('combobox', { name: 'Recipients' }).fill('Rita');
  await page.getByRole('option', { name: /Rita Recipient/ }).click();
  await page.getByLabel('Folder to send').setInputFiles(root);
  await page.getByRole('textbox', { name: 'Package name' }).fill(name);
  await page.getByRole('button', { name: 'Send Package' }).click();
  await page
    .getByTestId('sent-status')
    .filter({ hasText: 'Your package has been sent.' })
    .waitFor({ timeout: 60_000 });
  await page.context().close();
}

describe('a package sent while the recipient has the app open', () => {
  it('appears in the open Inbox and in the unseen badge at once, without a reload', async () => {
    const inbox = await recipientOn('/inbox');
    const elsewhere = await recipientOn('/sent');
    const received = inbox.page.getByRole('list', { name: 'Received packages' });
    const badge = elsewhere.page.getByLabel(/unseen packages$/);
    const badgeBefore = (await badge.count()) ? await badge.getAttribute('aria-label') : null;

    await sendPackage('Realtime reel');
    const sentAt = Date.now();
    await received.getByText('Realtime reel').waitFor({ timeout: 10_000 });
    const shownAfterMs = Date.now() - sentAt;
    await expect.poll(() => badge.getAttribute('aria-label')).not.toBe(badgeBefore);
    expect(shownAfterMs).toBeLessThan(5_000);
    for (const { page } of [inbox, elsewhere]) {
      expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    }
    console.log(`realtime: the package showed in the open Inbox ${shownAfterMs} ms after sending`);

    // Logging out closes the socket, and no new one is opened.
    const closed = new Promise<void>((resolve) => elsewhere.socket.on('close', () => resolve()));
    let reopened = false;
    elsewhere.page.on('websocket', () => (reopened = true));
    await elsewhere.page.getByRole('button', { name: 'Log out' }).click();
    await elsewhere.page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await elsewhere.page.waitForURL((url) => url.pathname === '/login');
    await closed;
    await new Promise((r) => setTimeout(r, 1500));
    expect(reopened).toBe(false);
  });
});
