import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import { stopEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';
import {
  apiLogin,
  changeDemoSettings,
  DEMO_PASSWORD,
  startProduct,
  stopProduct,
  waitForMail,
  type Product,
} from './harness';
import { folderToPick, freshPage, logIn, patternOf, sendPickedFolder } from './pages';
import { mountSmallVolume, type SmallVolume } from '../apps/server/test/small-volume';

// A full disk, for real: the product's data folder (objects and the embedded PostgreSQL) lives on
// a small tmpfs of its own. Its free-space floor is set to 24 MB rather than the default (5 % of
// 128 MB would be 6.4 MB, less than one 16 MB WAL segment of the database): the floor is what
// keeps the database writing while files are refused. A ballast file stands for what others
// stored; the upload then fills the volume down to the floor, is refused with 507 and pauses, and
// resumes by itself once the ballast is deleted, as an operator freeing space would.

const MiB = 1024 * 1024;
const MB = 1_000_000;
const FLOOR_BYTES = 24 * MB;
const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
/** 30 files of 1 MiB: three FormPost batches of ten, 10 MiB each. */
const FILES = 30;
const FILE_BYTES = MiB;
const FOLDER = 'Rushes';

let volume: SmallVolume;
let mountPoint: string;
let dataDir: string;
let product: Product | undefined;
const METRICS_TOKEN = 'disk-full-metrics-token';

beforeAll(async () => {
  volume = await mountSmallVolume('fr-diskfull-', '128m', { passable: true });
  mountPoint = volume.path;
  dataDir = path.join(mountPoint, 'data');
  product = await startProduct({
    DATA_DIR: dataDir,
    STORAGE_FREE_FLOOR: String(FLOOR_BYTES),
    METRICS_TOKEN,
  });
  // One worker, FormPost batches (no slabs): the batches land one after the other.
  await changeDemoSettings(product.server.url, {
    number_of_upload_workers: 1,
    use_slab_files: false,
  });
});

afterAll(async () => {
  if (product) await stopProduct(product);
  // The server stops its database as it ends; this makes sure before the volume goes.
  if (dataDir) await stopEmbeddedPostgres(dataDir).catch(() => undefined);
  await volume?.unmount();
});

const freeBytes = () => volume.freeBytes();

const nameOf = (i: number) => `take_${String(i).padStart(3, '0')}.mov`;

const queue = (page: Page) => page.getByRole('dialog', { name: 'Upload queue' });
const upload = (page: Page) => queue(page).getByRole('listitem', { name: FOLDER });
const statusOf = (page: Page) => upload(page).getByTestId('upload-status').innerText();
const figuresOf = (page: Page) => upload(page).getByTestId('upload-figures').innerText();

/** The operator's view of /healthcheck: with the metrics token it names the problems. */
async function health(url: string): Promise<{ code: number; status: string; problems: string[] }> {
  const response = await fetch(`${url}/healthcheck`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const body = (await response.json()) as { status: string; problems: string[] };
  return { code: response.status, ...body };
}

describe('a full disk', () => {
  it('pauses the upload with a 507, keeps the API up, and resumes by itself once space is freed', async () => {
    const { url } = product!.server;
    expect(await health(url)).toMatchObject({ code: 200, status: 'ok' });

    // Room for the first batch (10 MiB) above the floor, not for the second.
    const ballast = path.join(mountPoint, 'ballast');
    const ballastBytes = (await freeBytes()) - FLOOR_BYTES - 15 * MiB;
    expect(ballastBytes).toBeGreaterThan(0);
    await writeFile(ballast, Buffer.alloc(ballastBytes, 1));

    const page = await freshPage(product!.browser);
    const answers: { method: string; status: number; url: string }[] = [];
    page.on('response', (response) =>
      answers.push({
        method: response.request().method(),
        status: response.status(),
        url: new URL(response.url()).pathname,
      }),
    );
    /** The FormPost batches storage stored (201). */
    const storedBatches = () =>
      answers.filter((a) => a.method === 'POST' && a.url.startsWith('/v1/') && a.status === 201)
        .length;
    await logIn(page, url, SENDER, DEMO_PASSWORD);
    await page.goto(`${url}/share`);
    await folderToPick(
      page,
      FOLDER,
      Array.from({ length: FILES }, (_, i) => ({ name: nameOf(i), size: FILE_BYTES })),
    );
    await sendPickedFolder(page, FOLDER);

    // The upload stops at the floor and says why, with nothing failed.
    await upload(page).getByTestId('upload-figures').waitFor({ timeout: 60_000 });
    await upload(page)
      .getByText('Storage is full: the upload is paused')
      .waitFor({ timeout: 60_000 });
    expect(await statusOf(page)).toBe('Paused');
    // The first batch landed before the floor was reached (its bytes count); the rest waits.
    expect(storedBatches()).toBe(1);
    expect(Number(/^(\d+)%/.exec(await figuresOf(page))?.[1])).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 507).length).toBeGreaterThan(0);
    expect(await freeBytes()).toBeGreaterThanOrEqual(FLOOR_BYTES);

    // The server says so to its operator, and its other calls keep working.
    const degraded = await health(url);
    expect(degraded).toMatchObject({ code: 200, status: 'degraded' });
    expect(degraded.problems.join(' ')).toMatch(/^Storage is full: .* new files are refused/);
    const rita = await apiLogin(url, RECIPIENT, DEMO_PASSWORD);
    expect((await rita.call(api.accounts.user)).email).toBe(RECIPIENT);
    const sender = await apiLogin(url, SENDER, DEMO_PASSWORD);
    const sent = await sender.call(api.inbox.sentList, { query: { page: 1 } });
    expect(sent.page).toBe(1);

    // Space returns: the upload resumes by itself, without a restart or a click.
    await rm(ballast);
    await expect.poll(() => statusOf(page), { timeout: 150_000, interval: 500 }).toBe('Completed');
    expect(await figuresOf(page)).toMatch(/^100% · 30 of 30 files · /);
    // Each batch was stored once: the one acknowledged before the pause was not sent again.
    expect(storedBatches()).toBe(FILES / 10);
    expect(await health(url)).toMatchObject({ code: 200, status: 'ok' });
    // Never a server fault: every answer the page got was a success, a redirect or a 507.
    expect(answers.filter((a) => a.status >= 500 && a.status !== 507)).toEqual([]);

    // Nothing acknowledged was lost and every file arrived byte for byte.
    const mail = await waitForMail(
      { ...product!.site, dataDir },
      (m) => m.to.includes(RECIPIENT) && m.text.includes(`"${FOLDER}"`),
    );
    const link = mail.links.find((l) => l.includes('/inbox/'))!;
    const slug = new URL(link).pathname.split('/').at(-1)!;
    const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    for (let i = 0; i < FILES; i++) {
      const grant = await rita.call(api.downloads.fileGrant, {
        params: { slug, '*': `${FOLDER}/${nameOf(i)}` },
      });
      const stored = await fetch(new URL(grant.download_url, url)).then((r) => r.arrayBuffer());
      expect(sha(new Uint8Array(stored)), nameOf(i)).toBe(sha(patternOf(nameOf(i), FILE_BYTES)));
    }
  }, 300_000);
});
