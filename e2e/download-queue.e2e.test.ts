import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productOfFile } from './harness';
import { signedIn } from './pages';
import { answerPickerWith, readPicked, unpackAllInto } from './picked-folder';
import { GRADE_NOTES, sendDemoPackage } from './sent-package';

// The download queue in Chromium: a recipient's Download All and a file's download go through
// the queue. Chromium can pick a folder, so optimised download is on: a file lands whole in the
// picked folder through the engine, and Download All offers the folder choices and the
// browser's own download. All show in the transfer panel's download queue, and the bytes that
// land are the ones sent.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';

const product = productOfFile();
let scratch: string;
const { files } = GRADE_NOTES;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-download-queue-'));
  await sendDemoPackage(product.server.url, { sender: SENDER, ...GRADE_NOTES });
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the download queue', () => {
  it('lands a file in the picked folder and the package by the browser, both in the panel', async () => {
    const page = await signedIn(product, RITA);
    await page.waitForURL((url) => url.pathname === '/inbox');
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Grade notes' }).waitFor();
    await detail.getByText('Grade/notes.txt').waitFor();
    await answerPickerWith(page, 'Singles');

    // One file: the engine saves it whole into the folder picked at the click.
    await page.getByRole('button', { name: 'Download Grade/notes.txt' }).click();
    const ring = page.getByRole('button', { name: /^Download queue:/ });
    await expect
      .poll(() => ring.getAttribute('aria-label'))
      .toBe('Download queue: 1 download, 100%');
    expect((await readPicked(page, 'Singles', 'notes.txt'))?.equals(files[0]!.bytes)).toBe(true);

    // The whole package, by the browser's own download from the options menu.
    await page.getByRole('button', { name: 'Download All' }).click();
    const [whole] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Standard browser download' }).click(),
    ]);

    // The ring counts both; the queue lists them, completed.
    await expect
      .poll(() => ring.getAttribute('aria-label'))
      .toBe('Download queue: 2 downloads, 100%');
    await ring.click();
    const queue = page.getByRole('dialog', { name: 'Download queue' });
    const list = queue.getByRole('list', { name: 'Downloads' });
    const file = list.getByRole('listitem', { name: 'Grade/notes.txt' });
    const all = list.getByRole('listitem', { name: 'Grade notes' });
    expect(await file.getByTestId('upload-status').innerText()).toBe('Completed');
    expect(await all.getByTestId('upload-status').innerText()).toBe('Completed');
    await all.getByText('Standard browser download').waitFor();
    expect(await file.innerText()).toContain('Grade notes · Saving into Singles');
    // Completed downloads offer nothing more.
    expect(await all.getByRole('button').count()).toBe(0);
    expect(await file.getByRole('button').count()).toBe(0);

    expect(whole.suggestedFilename()).toMatch(/\.tar$/);
    const savedTar = path.join(scratch, whole.suggestedFilename());
    await whole.saveAs(savedTar);
    const unpacked = await mkdtemp(path.join(scratch, 'untar-'));
    await promisify(execFile)('tar', ['-xf', savedTar, '-C', unpacked]);
    for (const sent of files) {
      expect((await readFile(path.join(unpacked, sent.path))).equals(sent.bytes)).toBe(true);
    }
    await page.context().close();
  });

  it('unpacks Download All into a picked folder with the engine, every file as sent', async () => {
    const page = await signedIn(product, RITA);
    await page.waitForURL((url) => url.pathname === '/inbox');
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Grade notes' }).waitFor();
    // Optimised download is on by default here (Chromium can pick a folder).
    const item = await unpackAllInto(page, 'Deliveries', 'Grade notes');
    expect(await item.getByTestId('upload-status').innerText()).toBe('Completed');

    // What landed in the folder, unpacked: the files as sent (and the package's hash list).
    const landed = await page.evaluate(
      async (paths) => {
        const root = await navigator.storage.getDirectory();
        const out: Record<string, number[]> = {};
        for (const path of paths) {
          let dir = await root.getDirectoryHandle('Deliveries');
          const parts = path.split('/');
          for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
          const file = await (await dir.getFileHandle(parts.at(-1)!)).getFile();
          out[path] = [...new Uint8Array(await file.arrayBuffer())];
        }
        const ascmhl = await (
          await root.getDirectoryHandle('Deliveries')
        ).getDirectoryHandle('ascmhl');
        const names: string[] = [];
        for await (const name of (ascmhl as unknown as { keys(): AsyncIterable<string> }).keys())
          names.push(name);
        return { out, names };
      },
      files.map((f) => f.path),
    );
    for (const sent of files) {
      expect(Buffer.from(landed.out[sent.path]!).equals(sent.bytes), sent.path).toBe(true);
    }
    expect(landed.names).toContain('ascmhl_chain.xml');
    await page.context().close();
  });
});
