import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmbeddedDriver } from '../embedded-driver';
import { generatedBody, getDigest, putStream } from './generated-body';
import { startStoreProcess, type StoreProcess } from './store-process-handle';

const MiB = 1024 * 1024;

describe('embedded store in its own process', () => {
  let root: string;
  let tempUrlKey: string;
  let running: StoreProcess[] = [];

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'store-process-'));
    tempUrlKey = randomBytes(16).toString('hex');
    running = [];
  });

  afterEach(async () => {
    for (const store of running) await store.stop('SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  async function start(): Promise<{ store: StoreProcess; driver: EmbeddedDriver }> {
    const store = await startStoreProcess(root, tempUrlKey);
    running.push(store);
    const driver = new EmbeddedDriver({
      root,
      account: 'AUTH_filerunner',
      tempUrlKey,
      publicUrl: store.origin,
      allowedOrigin: 'http://127.0.0.1:5173',
    });
    await driver.ensureContainer('uploads');
    return { store, driver };
  }

  const url = (driver: EmbeddedDriver, method: 'GET' | 'PUT', key: string) =>
    driver.signTempUrl({
      method,
      container: 'uploads',
      key,
      expires: Math.floor(Date.now() / 1000) + 600,
    }).url;

  it('streams a 2 GiB PUT and GET with memory that does not grow with the object', async () => {
    const { store, driver } = await start();
    const warmUp = generatedBody(4 * MiB);
    expect(
      (await putStream(url(driver, 'PUT', 'warm-up'), warmUp.stream, 4 * MiB)).statusCode,
    ).toBe(201);
    expect((await getDigest(url(driver, 'GET', 'warm-up'))).status).toBe(200);
    const before = await store.memory();

    const size = 2048 * MiB;
    const body = generatedBody(size);
    const started = Date.now();
    const put = await putStream(url(driver, 'PUT', 'large'), body.stream, size);
    const putSeconds = (Date.now() - started) / 1000;
    expect(put.statusCode).toBe(201);
    expect(put.headers.etag).toBe(body.md5());

    const getStarted = Date.now();
    const got = await getDigest(url(driver, 'GET', 'large'));
    const getSeconds = (Date.now() - getStarted) / 1000;
    expect(got).toEqual({ status: 200, bytes: size, md5: body.md5() });

    const after = await store.memory();
    const growth = after.peakRss - before.rss;
    console.info(
      `2 GiB through the embedded store: PUT ${(size / putSeconds / 1e6).toFixed(0)} MB/s, ` +
        `GET ${(size / getSeconds / 1e6).toFixed(0)} MB/s; server RSS ${(before.rss / MiB).toFixed(0)} MiB ` +
        `before, peak ${(after.peakRss / MiB).toFixed(0)} MiB (growth ${(growth / MiB).toFixed(0)} MiB)`,
    );
    // Streams hold about a chunk or two each, but the peak also catches the heap before a
    // collection (measured 20 to 70 MiB on this machine); buffering would be near the 2 GiB object.
    expect(growth).toBeLessThan(128 * MiB);
  }, 240_000);

  /** Starts a PUT that announces 512 MiB and sends 24 MiB of it, then waits for it on disk. */
  async function startHalfUpload(driver: EmbeddedDriver, key: string, inFlight = 1) {
    const upload = request(url(driver, 'PUT', key), {
      method: 'PUT',
      headers: { 'content-length': String(512 * MiB) },
    });
    upload.on('error', () => undefined);
    const chunk = randomBytes(MiB);
    for (let i = 0; i < 24; i++) upload.write(chunk);
    await waitForTempFiles(path.join(root, '.tmp'), inFlight, 8 * MiB);
    return upload;
  }

  it('leaves no object and no temp file when killed (kill -9) in the middle of PUTs', async () => {
    const first = await start();
    const previous = generatedBody(1000);
    expect(
      (await putStream(url(first.driver, 'PUT', 'replaced'), previous.stream, 1000)).statusCode,
    ).toBe(201);
    const kept = await getDigest(url(first.driver, 'GET', 'replaced'));

    await startHalfUpload(first.driver, 'fresh');
    await startHalfUpload(first.driver, 'replaced', 2);
    expect((await readdir(path.join(root, '.tmp'))).length).toBe(2);
    await first.store.stop('SIGKILL');

    const second = await start();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect((await getDigest(url(second.driver, 'GET', 'fresh'))).status).toBe(404);
    expect(await getDigest(url(second.driver, 'GET', 'replaced'))).toEqual(kept);
  }, 60_000);

  it('removes the temp file at once when the client goes away mid-PUT', async () => {
    const { driver } = await start();
    const upload = await startHalfUpload(driver, 'abandoned');
    upload.destroy();
    await vi.waitFor(async () => expect(await readdir(path.join(root, '.tmp'))).toEqual([]), {
      timeout: 2000,
      interval: 20,
    });
    expect((await getDigest(url(driver, 'GET', 'abandoned'))).status).toBe(404);
  }, 30_000);
});

/** Waits until `count` temp files have grown to `bytes` each (bodies are streaming to disk). */
async function waitForTempFiles(tempDir: string, count: number, bytes: number): Promise<void> {
  await vi.waitFor(
    async () => {
      let grown = 0;
      for (const name of await readdir(tempDir).catch(() => [] as string[])) {
        const info = await stat(path.join(tempDir, name)).catch(() => null);
        if (info && info.size >= bytes) grown++;
      }
      if (grown < count) throw new Error(`fewer than ${count} temp files reached ${bytes} bytes`);
    },
    { timeout: 10_000, interval: 25 },
  );
}
