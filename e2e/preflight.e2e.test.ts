import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, productOfFile } from './harness';
import { freshPage, logIn } from './pages';

// The pre-flight check in Chromium, reached from the Share screen as a sender would: latency to
// this server, the names of a folder (of the page's private file system, standing in for the
// person's disk) checked with a safe name suggested for each refused one, and a real upload and
// ranged download round trip in the sender's storage, all in a report to copy or download.

const product = productOfFile();
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-preflight-'));
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the pre-flight check', () => {
  it('reports latency, refused names with suggestions and a storage round trip', async () => {
    const page = await freshPage(product.browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await logIn(page, product.server.url, 'sender@example.com', DEMO_PASSWORD);
    await page.goto(`${product.server.url}/share`);
    await page.getByRole('link', { name: 'Run a pre-flight check' }).click();
    await page.getByRole('heading', { name: 'Pre-flight check', level: 1 }).waitFor();

    await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const project = await root.getDirectoryHandle('Project', { create: true });
      const write = async (dir: FileSystemDirectoryHandle, name: string) => {
        const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
        await writable.write(new Uint8Array([1, 2, 3]));
        await writable.close();
      };
      const grade = await project.getDirectoryHandle('Grade', { create: true });
      await write(grade, 'notes.txt');
      await write(grade, 'report?.txt');
      const day = await project.getDirectoryHandle('Day 1:2', { create: true });
      await write(day, 'A001.mov');
      await write(project, 'CON.txt');
      await write(project, 'edit.mov');
      Object.assign(window, { showDirectoryPicker: async () => project });
    });
    await page.getByRole('button', { name: 'Choose folder' }).click();
    await page.getByText('Folder: Project').waitFor();
    await page.getByRole('button', { name: 'Run pre-flight check' }).click();

    const report = page.getByTestId('preflight-report');
    await report.waitFor({ timeout: 60_000 });
    const text = await report.innerText();
    // This server answered (the embedded default lists the server and its storage).
    expect(text).toMatch(/This server · FileRunner: \d+ ms/);
    expect(text).toMatch(/This server · Storage: \d+ ms/);
    // Seven names, three refused, each with a name that would do.
    expect(text).toContain('Folder "Project": 7 names checked, 3 refused');
    expect(text).toContain(
      'Refused: CON.txt (Filename contains invalid characters or patterns); suggested name: _CON.txt',
    );
    expect(text).toContain(
      'Refused: Day 1:2 (Filename contains invalid characters or patterns); suggested name: Day 1_2',
    );
    expect(text).toContain(
      'Refused: Grade/report?.txt (Filename contains invalid characters or patterns); suggested name: report_.txt',
    );
    expect(text).not.toContain('edit.mov');
    // The probe went up and came back by range, then was removed.
    expect(text).toMatch(/Upload: 262 KB in \d+ ms/);
    expect(text).toMatch(/Ranged download: 4\.1 KB in \d+ ms, bytes verified/);
    expect(text).toContain('Probe removed: yes');
    expect(text).toContain('Result: Succeeded');
    const refused = page.getByRole('region', { name: 'Refused names' });
    expect(await refused.getByRole('listitem').count()).toBe(3);
    await refused.getByText('Suggested name: report_.txt').waitFor();
    expect(await page.getByTestId('preflight-round-trip').innerText()).toMatch(
      /^Storage round trip succeeded/,
    );

    // Copied for support, and downloaded as the same text.
    await page.getByRole('button', { name: 'Copy report' }).click();
    await page.getByText('Report copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      (await report.evaluate((e) => e.textContent)) ?? '',
    );
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^filerunner-preflight-.*\.txt$/);
    const saved = path.join(scratch, file.suggestedFilename());
    await file.saveAs(saved);
    expect(await readFile(saved, 'utf8')).toBe(await report.evaluate((e) => e.textContent));
    await page.context().close();
  });

  it('is listed on /debug for a signed-in person', async () => {
    const page = await freshPage(product.browser);
    await page.goto(`${product.server.url}/debug`);
    await page.getByRole('heading', { name: 'Latency' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Pre-flight check' }).count()).toBe(0);
    await logIn(page, product.server.url, 'sender@example.com', DEMO_PASSWORD);
    await page.goto(`${product.server.url}/debug`);
    await page.getByRole('link', { name: /Pre-flight check/ }).click();
    await page.getByRole('heading', { name: 'Pre-flight check', level: 1 }).waitFor();
    await page.context().close();
  });
});
