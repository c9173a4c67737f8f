import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import { apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { see, signedIn } from './pages';
import { sendDemoPackage } from './sent-package';

// The download debug page in Chromium, as support staff use it with a person: a received
// package downloaded by the real engine into a folder (of the page's private file system,
// standing in for the person's disk), its rates, progress, charts and memory shown, its event
// log saved and replayed to the same figures; and a download that fails, told and back to IDLE.

const RITA = 'recipient@example.com';
const product = productOfFile();
let scratch: string;
let slug: string;

/** Bytes that differ from file to file and along each file. */
const patterned = (size: number, seed: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 255;
  return bytes;
};

const files = [
  { path: 'Reel/A001.mov', bytes: patterned(6_000_000, 1) },
  { path: 'Reel/A002.mov', bytes: patterned(2_500_000, 2) },
  { path: 'notes.txt', bytes: Buffer.from('Debug this download.\n') },
];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-debug-download-'));
  slug = await sendDemoPackage(product.server.url, {
    sender: 'sender@example.com',
    recipients: [RITA],
    name: 'Debug reel',
    message: 'For the download debugger',
    files,
  });
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The page's figures by name, as shown. */
async function figures(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of [
    'download-rate',
    'extract-rate',
    'progress',
    'files',
    'file-states',
    'chunks',
    'memory',
    'events',
  ]) {
    out[name] = await page.getByTestId(`figure-${name}`).innerText();
  }
  return out;
}

const status = (page: Page) => page.getByTestId('debug-status').innerText();

/** Signs Rita in and opens the page, the folder picker answering a private-file-system folder. */
async function openDebugPage(folder: string): Promise<Page> {
  const page = await signedIn(product, RITA);
  await page.goto(`${product.server.url}/debug/download`);
  await page.getByRole('heading', { name: 'Download', level: 1 }).waitFor();
  await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(name, { create: true });
    Object.assign(window, { showDirectoryPicker: async () => dir });
  }, folder);
  return page;
}

describe('the download debug page', () => {
  it('downloads a package with the engine, then replays its saved event log to the same figures', async () => {
    const page = await openDebugPage('Debug downloads');
    expect(await status(page)).toBe('Choose a package or enter URLs to download.');
    const history = page.getByRole('region', { name: 'Download History' });
    await history.getByRole('button', { name: /Debug reel/ }).click();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await see(page, 'Directory: Debug downloads');

    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('Completed');
    expect(await page.getByTestId('debug-state').innerText()).toBe('State: IDLE · Debug reel');
    const shown = await figures(page);
    // Every byte, every file (the package's two hash-list files too), each closed.
    expect(shown.progress).toMatch(/^8\.5 MB of 8\.5 MB \(100%\)$/);
    expect(shown.files).toBe('5 of 5 completed');
    expect(shown['file-states']).toBe('Pending 0 · Writing 0 · Closing 0 · Closed 5 · Error 0');
    expect(shown['download-rate']).toMatch(/^[\d.]+ (b|kb|Mb|Gb)\/s$/);
    expect(shown['download-rate']).not.toBe('0 b/s');
    expect(shown['extract-rate']).toMatch(/^[\d.]+ (b|kb|Mb|Gb)\/s$/);
    expect(shown.memory).toMatch(/used of .* \(limit /);
    expect(Number(shown.events)).toBeGreaterThan(10);
    // Both rates drawn as lines.
    for (const chart of ['download-rate-chart', 'extract-rate-chart']) {
      await page.getByTestId(chart).locator('.MuiLineChart-line').first().waitFor();
    }

    // The files, in the folder, as sent.
    const landed = await page.evaluate(
      async (paths) => {
        const root = await navigator.storage.getDirectory();
        const out: Record<string, number[]> = {};
        for (const p of paths) {
          let dir = await root.getDirectoryHandle('Debug downloads');
          const parts = p.split('/');
          for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
          const file = await (await dir.getFileHandle(parts.at(-1)!)).getFile();
          const bytes = new Uint8Array(await file.arrayBuffer());
          // A digest of the bytes rather than the bytes, to keep the answer small.
          out[p] = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))];
        }
        return out;
      },
      files.map((f) => f.path),
    );
    const { createHash } = await import('node:crypto');
    for (const sent of files) {
      const digest = [...createHash('sha256').update(sent.bytes).digest()];
      expect(landed[sent.path], sent.path).toEqual(digest);
    }

    // The event log, saved: version 2, each record numbered in its run.
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save Event Log' }).click(),
    ]);
    const logPath = path.join(scratch, saved.suggestedFilename());
    await saved.saveAs(logPath);
    const log = JSON.parse(await readFile(logPath, 'utf8')) as {
      version: number;
      downloadID: string;
      records: {
        eventCount: number;
        downloadID: string;
        event: { type: string; progress?: { rate: number; extractRate: number } };
      }[];
    };
    expect(log.version).toBe(2);
    expect(log.records.map((r) => r.eventCount)).toEqual(log.records.map((_, i) => i + 1));
    expect(new Set(log.records.map((r) => r.downloadID))).toEqual(new Set([log.downloadID]));
    expect(log.records.length).toBe(Number(shown.events));
    const types = new Set(log.records.map((r) => r.event.type));
    for (const type of ['chunk-started', 'chunk-finished', 'progress', 'file-state', 'file-closed'])
      expect(types, type).toContain(type);
    // Bytes were seen arriving and being written while it ran.
    const progress = log.records.flatMap((r) => (r.event.progress ? [r.event.progress] : []));
    expect(progress.some((p) => p.rate > 0)).toBe(true);
    expect(progress.some((p) => p.extractRate > 0)).toBe(true);
    // Never a URL: a grant's URL is a credential.
    expect(await readFile(logPath, 'utf8')).not.toMatch(/https?:\/\//);

    // Replayed in a fresh page: the same figures, counted up as it goes.
    await page.context().close();
    const replay = await openDebugPage('Replays');
    await replay.getByLabel('Event log file').setInputFiles(logPath);
    const total = log.records.length;
    await expect
      .poll(() => status(replay), { interval: 50 })
      .toMatch(new RegExp(`^Replaying events\\.\\.\\. \\d+ / ${total}$`));
    await expect.poll(() => status(replay), { timeout: 30_000 }).toBe('Completed');
    expect(await figures(replay)).toEqual(shown);
    await replay.getByTestId('download-rate-chart').locator('.MuiLineChart-line').first().waitFor();
    await replay.context().close();
  });

  it('asks for URLs, and tells a failed download with its cause, back to IDLE', async () => {
    const page = await openDebugPage('Failures');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await see(page, 'URLs required');

    await page
      .getByRole('textbox', { name: 'URLs' })
      .fill(`\n   \n${product.server.url}/api/no-such/reel.mov\n\n`);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const error = page.getByTestId('debug-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(
      /^Error downloading\s+reel\.mov: .* answered HTTP 404$/,
    );
    expect(await page.getByTestId('debug-state').innerText()).toBe('State: IDLE');
    expect(await status(page)).toBe('Choose a package or enter URLs to download.');
    // Ready for the next try.
    expect(await page.getByRole('button', { name: 'Download', exact: true }).isEnabled()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: 'Abort' }).isDisabled()).toBe(true);

    // A folder the person does not let the page write into.
    await page.evaluate(() =>
      Object.assign(window, {
        showDirectoryPicker: async () => {
          throw new DOMException('The folder cannot be opened', 'NotAllowedError');
        },
      }),
    );
    await page.getByRole('button', { name: 'Change Directory' }).click();
    await see(page, 'Failed to change directory: The folder cannot be opened');
    await page.context().close();
  });

  it('downloads a URL as one file, and aborts a download back to IDLE', async () => {
    // A grant's URL, as support would paste one: the package's tar, downloaded as a file.
    const rita = await apiLogin(product.server.url, RITA, DEMO_PASSWORD);
    const grant = await rita.call(api.downloads.packageGrant, { params: { slug } });
    const page = await openDebugPage('By URL');
    await page.getByRole('textbox', { name: 'URLs' }).fill(grant.download_url);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('Completed');
    expect(await page.getByTestId('figure-files').innerText()).toBe('1 of 1 completed');
    const tarName = new URL(grant.download_url).pathname.split('/').at(-1)!;
    const size = await page.evaluate(async (name) => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('By URL');
      return (await (await dir.getFileHandle(decodeURIComponent(name))).getFile()).size;
    }, tarName);
    expect(size).toBe(grant.size);

    // The same URL again into the same folder: the file there is not this new download's, so
    // nothing is written over it (issue 38) and the page says why.
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const error = page.getByTestId('debug-error');
    await error.waitFor();
    expect(await error.innerText()).toContain(
      `The folder already holds files this download did not write: "${decodeURIComponent(tarName)}"`,
    );
    expect(await page.getByTestId('debug-state').innerText()).toMatch(/^State: IDLE/);
    await page.evaluate(async (name) => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('By URL');
      await dir.removeEntry(decodeURIComponent(name));
    }, tarName);

    // The bytes held back, so the download is surely still running when Abort is pressed.
    await page.route('**/api/downloads/**', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await expect.poll(() => status(page)).toBe('Downloading...');
    expect(await page.getByTestId('debug-state').innerText()).toMatch(/^State: DOWNLOADING/);
    await page.getByRole('button', { name: 'Abort' }).click();
    await expect.poll(() => status(page)).toBe('Aborted');
    expect(await page.getByTestId('debug-state').innerText()).toMatch(/^State: IDLE/);
    expect(await error.count()).toBe(0);
    await page.context().close();
  });
});
