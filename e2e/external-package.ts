import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  changeDemoSettings,
  DEMO_PASSWORD,
  readMails,
  waitForMailLink,
  type Product,
  type RunningServer,
  type Site,
} from './harness';
import { freshPage, logIn } from './pages';
import { GRADE_NOTES, sendDemoPackage } from './sent-package';

/** The outsider of the external page tests: an ad-hoc address with a mobile for the PIN. */
export const PARTNER = 'partner@external.test';
export const MOBILE = '+12025550123';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A package sent to `PARTNER`: the mailed link, and each file's SHA-256 by its path. */
export interface SentToPartner {
  link: string;
  sentFiles: Record<string, string>;
}

/**
 * The demo sender sends a folder `Grade` (two files) named `name` on the Share screen in
 * Chromium, to `PARTNER` with a PIN to `MOBILE`. The contract must allow ad-hoc recipients and
 * PIN verification. Waits with locators only, so it may run in `beforeAll`.
 */
export async function sendToPartnerWithPin(
  site: Site,
  server: RunningServer,
  browser: Browser,
  name: string,
): Promise<SentToPartner> {
  const page = await freshPage(browser);
  await logIn(page, server.url, 'sender@example.com', DEMO_PASSWORD);
  await page.goto(`${server.url}/share`);
  // The folder picker answers a folder of the origin-private file system, standing in for disk.
  const sentFiles = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle('Grade', { create: true });
    const hashes: Record<string, string> = {};
    for (const [file, size] of [
      ['look.cube', 300_000],
      ['notes.txt', 1_234],
    ] as const) {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 13 + file.length) & 255;
      const writable = await (await folder.getFileHandle(file, { create: true })).createWritable();
      await writable.write(bytes);
      await writable.close();
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      hashes[`Grade/${file}`] = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    }
    Object.assign(window, { showDirectoryPicker: async () => folder });
    return hashes;
  });
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page
    .getByTestId('selected-file-count')
    .filter({ hasText: /^2 files/ })
    .waitFor();
  await page.getByRole('combobox', { name: 'Recipients' }).fill(PARTNER);
  await page.getByRole('option', { name: `Add ${PARTNER}` }).click();
  await page.getByRole('switch', { name: 'PIN verification' }).check();
  const mobile = page.getByRole('textbox', { name: `Mobile for ${PARTNER}` });
  await mobile.fill('');
  await mobile.pressSequentially(MOBILE);
  await page.getByRole('textbox', { name: 'Package name' }).fill(name);
  await page.getByRole('textbox', { name: 'Message' }).fill('The second pass of the grade.');
  const mailsBefore = (await readMails(site)).length;
  await page.getByRole('button', { name: 'Send Package' }).click();
  await page
    .getByTestId('sent-status')
    .filter({ hasText: 'Your package has been sent. The recipients have been emailed.' })
    .waitFor({ timeout: 60_000 });
  await page.context().close();
  return {
    link: await waitForMailLink(site, PARTNER, '/inbox/external/', mailsBefore),
    sentFiles,
  };
}

const smsDir = (site: Site) => path.join(site.dataDir, 'sms');

/** How many text messages the server has captured in DATA_DIR/sms so far. */
export async function textCount(site: Site): Promise<number> {
  return (await readdir(smsDir(site)).catch(() => [] as string[])).length;
}

/** The PIN in the newest text message to `MOBILE` captured after the first `since`. */
export async function textedPin(site: Site, since: number): Promise<string> {
  let body = '';
  await expect
    .poll(async () => {
      const files = (await readdir(smsDir(site)).catch(() => [] as string[])).sort();
      if (files.length <= since) return false;
      body = await readFile(path.join(smsDir(site), files.at(-1)!), 'utf8');
      return true;
    })
    .toBe(true);
  expect(body).toContain(`To: ${MOBILE}`);
  return /\b(\d{6})\b/.exec(body)![1]!;
}

/**
 * What the screen-by-screen suites look at: the demo contract allowing ad-hoc recipients with a
 * PIN, GRADE_NOTES sent by the demo sender, and 'Grade for review' sent to PARTNER with a PIN;
 * answers the partner's mailed link.
 */
export async function sendGradeNotesAndPartnerLink(product: Product): Promise<string> {
  const url = product.server.url;
  await changeDemoSettings(url, { can_add_ad_hoc: true, pin_verification: 'adhoc' });
  await sendDemoPackage(url, { sender: 'sender@example.com', ...GRADE_NOTES });
  const { link } = await sendToPartnerWithPin(
    product.site,
    product.server,
    product.browser,
    'Grade for review',
  );
  return link;
}
