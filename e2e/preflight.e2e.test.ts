import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@filerunner/protocol';
import { sign, tempUrlMessage } from '../apps/server/src/storage/signing';
import { apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { freshPage, logIn, signedIn } from './pages';

// The pre-flight check in Chromium, reached from the Share screen as a sender would: latency to
// this server, the names of a folder (of the page's private file system, standing in for the
// person's disk) checked with a safe name suggested for each refused one, and a real upload and
// ranged download round trip in the sender's storage, all in a report to copy or download.

// The store's key is known here so the attack below can hold a signed GET link to a probe, as the
// pre-flight check once handed out.
const TEMPURL_KEY = randomBytes(16).toString('hex');
const product = productOfFile({ EMBEDDED_STORE_TEMPURL_KEY: TEMPURL_KEY });
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

/** A signed GET link to the object a probe's upload URL names, with `extra` query words after it. */
function signedGetLink(uploadUrl: string, extra: string): string {
  const url = new URL(uploadUrl);
  const expires = Math.floor(Date.now() / 1000) + 300;
  const signature = sign(
    TEMPURL_KEY,
    tempUrlMessage('GET', expires, decodeURIComponent(url.pathname)),
  );
  return `${url.origin}${url.pathname}?temp_url_sig=${signature}&temp_url_expires=${expires}${extra}`;
}

/**
 * Opens `url` in the page as a person following a link would; answers the response's status and
 * headers, and the download it started (null when it started none, or was not waited for).
 */
async function follow(page: Page, url: string, { awaitDownload = true } = {}) {
  const answered = page.waitForResponse((response) => response.url() === url);
  const downloaded = awaitDownload
    ? page.waitForEvent('download', { timeout: 5000 }).catch(() => null)
    : Promise.resolve(null);
  // A download ends the navigation without a page: goto then rejects, which is the good case.
  await page.goto(url).catch(() => undefined);
  const response = await answered;
  return { status: response.status(), headers: await response.allHeaders(), downloaded };
}

/** Expects the answer of a link to bytes a user chose to be a download no browser renders. */
async function expectSandboxedDownload(answer: Awaited<ReturnType<typeof follow>>) {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-disposition']).toMatch(/^attachment/);
  expect(answer.headers['content-type']).toBe('application/octet-stream');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
  expect(await answer.downloaded).not.toBeNull();
}

describe("bytes a user chose, on the app's origin", () => {
  it("never run as script, opened by a signed-in admin (issue 38's probe chain)", async () => {
    const attacker = await apiLogin(product.server.url, 'sender@example.com', DEMO_PASSWORD);
    const script = await attacker.call(api.preflight.createProbe);
    const html = await attacker.call(api.preflight.createProbe);
    // The script marks the admin's storage and mints an API key as them, if it ever runs.
    const payload = `localStorage.setItem('probe-script', 'ran');
      fetch('/api/api_keys/', { method: 'POST', headers: { 'content-type': 'application/json',
        'x-client-version': 'e2e' }, body: JSON.stringify({ name: 'minted by a probe' }) });`;
    const scriptLink = signedGetLink(script.upload_url, '&inline&filename=probe.js');
    const page = `<!doctype html><title>probe</title>
      <script src="${scriptLink}"></script>
      <script src="/api/preflight/probes/${script.id}/"></script>`;
    for (const [probe, body, type] of [
      [script, payload, 'text/javascript'],
      [html, page, 'text/html'],
    ] as const) {
      const put = await fetch(probe.upload_url, {
        method: 'PUT',
        body,
        headers: { 'content-type': type },
      });
      expect(put.status).toBe(201);
    }

    const adminApi = await apiLogin(product.server.url, 'admin@example.com', DEMO_PASSWORD);
    const keysBefore = await adminApi.call(api.apiKeys.list);
    const admin = await signedIn(product, 'admin@example.com');
    const appPage = admin.url();
    // The link the attack sent, signed for GET as the check once handed out: saved, not shown.
    await expectSandboxedDownload(
      await follow(admin, signedGetLink(html.upload_url, '&inline&filename=index.html')),
    );
    expect(admin.url()).toBe(appPage);
    // The API's read of someone else's probe: nothing to see, and that sandboxed too.
    const theirs = await follow(admin, `${product.server.url}/api/preflight/probes/${html.id}/`, {
      awaitDownload: false,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    // No script ran as the admin: no mark in the app's storage, no key minted.
    await admin.goto(appPage);
    expect(await admin.evaluate(() => localStorage.getItem('probe-script'))).toBeNull();
    expect(await adminApi.call(api.apiKeys.list)).toEqual(keysBefore);
    await admin.context().close();

    // Its maker reading it through the API gets the same download.
    const maker = await signedIn(product, 'sender@example.com');
    await expectSandboxedDownload(
      await follow(maker, `${product.server.url}/api/preflight/probes/${html.id}/`),
    );
    await maker.context().close();
  });
});
