import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser as Chromium } from 'playwright-core';
import puppeteer, { type Browser as Firefox, type Page } from 'puppeteer-core';
import {
  assertWebAppBuilt,
  changeDemoSettings,
  launchBrowser,
  prepareSite,
  type RunningServer,
  type Site,
  startServer,
} from './harness';
import { sendToPartnerWithPin, sha256, textCount, textedPin } from './external-package';

// The external page in Debian's Firefox ESR, driven by puppeteer-core over WebDriver BiDi
// (playwright-core cannot drive a stock Firefox). The package is sent from Chromium; the
// outsider opens the link, unlocks it with the texted PIN and downloads in Firefox.

const FIREFOX = '/usr/bin/firefox-esr';
/** How long a started download may take to land, on a busy machine. */
const DOWNLOAD_WAIT_MS = 30_000;

let site: Site;
let server: RunningServer;
let chromium: Chromium;
let firefox: Firefox;
let scratch: string;
let downloads: string;
/** What Firefox's console said on the page, told when a download does not come. */
const consoleLines: string[] = [];

beforeAll(async () => {
  assertWebAppBuilt();
  if (!existsSync(FIREFOX)) {
    throw new Error("Debian's Firefox ESR is missing: run apt-get install -y firefox-esr");
  }
  site = await prepareSite();
  server = await startServer(site);
  chromium = await launchBrowser();
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-firefox-'));
  downloads = path.join(scratch, 'downloads');
  const home = path.join(scratch, 'home');
  await Promise.all([mkdir(downloads), mkdir(home)]);
  firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // Downloads land in our folder without a dialog; Firefox's own files stay out of the real HOME.
    extraPrefsFirefox: { 'browser.download.dir': downloads, 'browser.download.folderList': 2 },
    env: { ...process.env, HOME: home },
  });
  await changeDemoSettings(server.url, { can_add_ad_hoc: true, pin_verification: 'adhoc' });
});

afterAll(async () => {
  await firefox?.close();
  await chromium?.close();
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Waits until `text` is on the page. */
const see = (page: Page, text: string) => page.waitForSelector(`::-p-text(${text})`);
const button = (label: string) => `button::-p-text(${label})`;
const isDisabled = (page: Page, selector: string) =>
  page.$eval(selector, (element) => (element as HTMLButtonElement).disabled);

/** The download folder's files with their sizes, for a failure message. */
async function folderListing(): Promise<string> {
  const files = await readdir(downloads);
  const sized = await Promise.all(
    files.map(async (file) => {
      const size = await stat(path.join(downloads, file)).then(
        (found) => `${found.size} B`,
        () => 'gone',
      );
      return `${file} (${size})`;
    }),
  );
  return sized.join(', ') || 'nothing';
}

/**
 * The path of `name` in the download folder, once Firefox has finished it. Waits for the exact
 * name: on the way Firefox makes files of made-up names (an empty `D_Y4wvxR.tar` for an instant,
 * then `.part` files) and keeps `name` empty until it renames the finished `.part` over it.
 */
async function downloaded(name: string): Promise<string> {
  try {
    await expect
      .poll(
        async () => {
          const files = await readdir(downloads);
          return files.includes(name) && !files.some((file) => file.endsWith('.part'));
        },
        { timeout: DOWNLOAD_WAIT_MS },
      )
      .toBe(true);
  } catch (error) {
    throw new Error(
      `${name} did not appear in the download folder within ${DOWNLOAD_WAIT_MS / 1000} s; ` +
        `the folder holds: ${await folderListing()}\n` +
        `Firefox console:\n${consoleLines.join('\n') || 'nothing'}`,
      { cause: error },
    );
  }
  return path.join(downloads, name);
}

describe('the external package page in Firefox ESR', () => {
  it('unlocks with the texted PIN and downloads a file and the whole package', async () => {
    const { link, sentFiles } = await sendToPartnerWithPin(site, server, chromium, 'Grade in Fx');
    const page = await firefox.newPage();
    await page.setViewport({ width: 1440, height: 900 });
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`page error: ${String(error)}`));
    await page.goto(link);

    await see(page, 'Grade in Fx');
    await see(page, 'From Sam Sender');
    expect(await isDisabled(page, button('Download All'))).toBe(true);

    await page.click(button('Unlock with PIN'));
    await see(page, 'ending in 123');
    const before = await textCount(site);
    await page.click(button('Send PIN'));
    await see(page, 'We sent a PIN by text message');
    const pin = await textedPin(site, before);

    // Typed into the first input, each digit moves on to the next by itself.
    await page.click('input[aria-label="PIN digit 1"]');
    await page.keyboard.type(pin);
    const typed = await page.$$eval('input[aria-label^="PIN digit"]', (inputs) =>
      inputs.map((input) => (input as HTMLInputElement).value).join(''),
    );
    expect(typed).toBe(pin);
    await page.keyboard.press('Enter');
    // The dialog fades out after a right PIN and takes every click on the page until it is gone.
    // Puppeteer clicks at the button's place whatever lies on top there, so a click before then
    // lands on the dialog and no download starts (the downloads open as soon as the package's
    // answer comes, often before the fade ends).
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    await see(page, 'PIN verified: you can download the files now.');
    await expect.poll(() => isDisabled(page, button('Download All'))).toBe(false);

    await page.click('button[aria-label="Download Grade/notes.txt"]');
    const single = await downloaded('notes.txt');
    expect(sha256(await readFile(single))).toBe(sentFiles['Grade/notes.txt']);

    await page.click(button('Download All'));
    const tar = await downloaded('Grade in Fx.tar');
    const unpacked = await mkdtemp(path.join(scratch, 'untar-'));
    await promisify(execFile)('tar', ['-xf', tar, '-C', unpacked]);
    for (const [filePath, hash] of Object.entries(sentFiles)) {
      expect(sha256(await readFile(path.join(unpacked, filePath)))).toBe(hash);
    }
    await page.close();
  });
});
