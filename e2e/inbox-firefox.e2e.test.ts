import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser as Firefox, type Page } from 'puppeteer-core';
import {
  assertWebAppBuilt,
  DEMO_PASSWORD,
  prepareSite,
  type RunningServer,
  type Site,
  startServer,
} from './harness';
import { sendDemoPackage } from './sent-package';
import { patternBytes } from './transfer-browser/pattern';

// A signed-in recipient's standard browser download in Debian's Firefox ESR, driven by
// puppeteer-core over WebDriver BiDi (as the external page's test): Firefox has no folder
// picker, so Download All is the browser's own download at once, with no menu; the package's
// `.tar` and one file land in Firefox's download folder, byte for byte, and the transfer panel's
// download queue lists both as standard browser downloads, completed.

const FIREFOX = '/usr/bin/firefox-esr';
const RITA = 'recipient@example.com';
/** How long a started download may take to land, on a busy machine. */
const DOWNLOAD_WAIT_MS = 30_000;

const files = [
  { path: 'Conform/EDL v3.edl', bytes: Buffer.from('TITLE: Reel 1\nFCM: NON-DROP FRAME\n') },
  { path: 'Conform/Reel 1.mov', bytes: Buffer.from(patternBytes(0, 3 * 1024 * 1024, 5)) },
];

let site: Site;
let server: RunningServer;
let firefox: Firefox;
let scratch: string;
let downloads: string;

beforeAll(async () => {
  assertWebAppBuilt();
  if (!existsSync(FIREFOX)) {
    throw new Error("Debian's Firefox ESR is missing: run apt-get install -y firefox-esr");
  }
  site = await prepareSite();
  server = await startServer(site);
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-inbox-firefox-'));
  downloads = path.join(scratch, 'downloads');
  const home = path.join(scratch, 'home');
  await Promise.all([mkdir(downloads), mkdir(home)]);
  firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { 'browser.download.dir': downloads, 'browser.download.folderList': 2 },
    env: { ...process.env, HOME: home },
  });
  await sendDemoPackage(server.url, {
    sender: 'sender@example.com',
    recipients: [RITA],
    name: 'Reel 1 conform',
    message: 'Locked cut',
    files,
  });
});

afterAll(async () => {
  await firefox?.close();
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const see = (page: Page, text: string) => page.waitForSelector(`::-p-text(${text})`);

/** The path of `name` in the download folder once Firefox has finished it (no `.part` left). */
async function downloaded(name: string): Promise<string> {
  await expect
    .poll(
      async () => {
        const found = await readdir(downloads);
        return found.includes(name) && !found.some((file) => file.endsWith('.part'));
      },
      { timeout: DOWNLOAD_WAIT_MS },
    )
    .toBe(true);
  return path.join(downloads, name);
}

describe('the Inbox in Firefox ESR', () => {
  it("downloads a file and the whole package with the browser's own download", async () => {
    const page = await firefox.newPage();
    await page.setViewport({ width: 1440, height: 900 });
    await page.goto(`${server.url}/login`);
    await page.locator('input[type="email"]').fill(RITA);
    await page.locator('input[type="password"]').fill(DEMO_PASSWORD);
    await page.locator('button::-p-text(Log in)').click();
    await see(page, 'Reel 1 conform');
    await page.waitForSelector('::-p-text(Conform/EDL v3.edl)');

    // No folder picker in Firefox: Download All is the browser's download, not a menu.
    const all = await page.waitForSelector('button::-p-text(Download All)');
    expect(await all!.evaluate((b) => b.getAttribute('aria-haspopup'))).toBeNull();

    await page.locator('button[aria-label="Download Conform/EDL v3.edl"]').click();
    const single = await downloaded('EDL v3.edl');
    expect((await readFile(single)).equals(files[0]!.bytes)).toBe(true);

    await all!.click();
    const tar = await downloaded('Reel 1 conform.tar');
    const unpacked = await mkdtemp(path.join(scratch, 'untar-'));
    await promisify(execFile)('tar', ['-xf', tar, '-C', unpacked]);
    for (const sent of files) {
      expect((await readFile(path.join(unpacked, sent.path))).equals(sent.bytes), sent.path).toBe(
        true,
      );
    }

    // The download queue lists both, each the browser's download, completed.
    await page.locator('button[aria-label="Download queue: 2 downloads, 100%"]').click();
    const queue = await page.waitForSelector('[role="dialog"][aria-label="Download queue"]');
    await expect
      .poll(() => queue!.evaluate((region) => (region as HTMLElement).innerText))
      .toMatch(/Reel 1 conform[\s\S]*Standard browser download/);
    const statuses = await queue!.$$eval('[data-testid="upload-status"]', (found) =>
      found.map((s) => (s as HTMLElement).innerText),
    );
    expect(statuses).toEqual(['Completed', 'Completed']);
    await page.close();
  });
});
