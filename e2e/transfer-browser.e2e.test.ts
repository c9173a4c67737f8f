import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createXXHash128, xxhash128 } from 'hash-wasm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  freePort,
  launchBrowser,
  prepareSite,
  startServer,
  type RunningServer,
  type Site,
} from './harness';
import {
  buildLab,
  MiB,
  openLab,
  pageHeapMeter,
  peakWhile,
  reload,
  workerHeapMeter,
} from './transfer-browser/lab-harness';
import { patternBytes } from './transfer-browser/pattern';
import { putUrl, segmentObjectName, storedObjectPath } from '@filerunner/transfer/node';

// The transfer engine's browser entry in Chromium, against the real server and its embedded
// store: the lab page (e2e/transfer-browser/) is built with Vite and served as the site's web app,
// so the page, the API and storage share one origin as they do in production.

let labDist: string;
let site: Site;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  labDist = await buildLab();
  site = await prepareSite({ WEB_DIST: labDist });
  server = await startServer(site);
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(labDist, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** Path, size and SHA-256 of pattern files, sorted by path, as the lab's `describe` gives them. */
const described = (files: { path: string; size: number; seed: number }[]) =>
  files
    .map((f) => ({ path: f.path, size: f.size, sha256: sha256(patternBytes(0, f.size, f.seed)) }))
    .sort((a, b) => a.path.localeCompare(b.path));

describe('sending bytes with the XHR client', () => {
  it('PUTs a 64 MiB file with progress that rises to its size, and FormPosts fields then files', async () => {
    const page = await openLab(browser, site.url);
    const large = { path: 'Rushes/A001.mov', size: 64 * MiB, seed: 1 };
    const small = [
      { path: 'Notes/brief.txt', size: 1200, seed: 2 },
      { path: 'Notes/Präsentation über.pdf', size: 70_000, seed: 3 },
    ];
    // The large file as the only segment of itself: storage takes no other name for it.
    const largeObject = segmentObjectName(large.path, '0000000000000000', large.size, 0);
    const { pkg, grants } = await page.evaluate(
      async ({ password, files, largeObject }) => {
        const { api, routes } = window.lab;
        // Logging in through the client sets the session cookie the later calls carry.
        await api.call(routes.accounts.authenticate, {
          body: { email: 'sender@example.com', password },
        });
        const groups = await api.call(routes.recipients.list, { params: { slug: 'demo' } });
        const recipient = groups
          .flatMap((g) => g.members)
          .find((m) => m.email === 'recipient@example.com')!;
        const created = await api.call(routes.packages.create, {
          body: {
            contract: 'demo',
            name: 'Browser entry',
            recipients: [{ id: recipient.id }],
            valid_from: new Date().toISOString(),
            valid_to: new Date(Date.now() + 48 * 3_600_000).toISOString(),
            expected_files: files.length,
            expected_size: files.reduce((sum, f) => sum + f.size, 0),
            intended_files: files.map((f) => ({ filename: f.path, size: f.size })),
          },
        });
        const bulk = await api.call(routes.packages.bulk, {
          params: { slug: created.slug },
          body: {
            batches: [{ batch_name: 'batch-1', files: files.slice(1) }],
            large_file_total_size: files[0]!.size,
            // Listed as the engine's plan lists its segments: on Swift only a listed object
            // has a PUT grant (the prefix's allows HEAD alone).
            objects: [{ name: largeObject, size: files[0]!.size }],
          },
        });
        return { pkg: created, grants: bulk };
      },
      {
        password: DEMO_PASSWORD,
        files: [large, ...small].map(({ path, size }) => ({ path, size })),
        largeObject,
      },
    );

    await page.evaluate(
      async (f) => void (await window.lab.writeOpfsFile(f.path, f.size, f.seed)),
      large,
    );
    // The large file PUT with its own grant, by the engine's own lookup of it.
    const objectUrl = putUrl(grants.tempurl_data, largeObject, 0);
    expect(objectUrl).not.toBeNull();
    const heap = await pageHeapMeter(page);
    const baseline = await heap({ settle: true });
    const { peak, result: put } = await peakWhile(
      heap,
      page.evaluate(
        async ({ url, path }) => {
          const { transfer, opfsDirectory } = window.lab;
          const folder = await opfsDirectory(path.split('/')[0]!);
          const handle = await folder.getFileHandle(path.split('/')[1]!);
          const source = await transfer.FileHandleSource.open(handle, path);
          const progress: number[] = [];
          const response = await window.lab.client.request({
            method: 'PUT',
            url,
            body: source.slice(0, source.size),
            onUploadProgress: (sent) => progress.push(sent),
          });
          return { status: response.status, etag: response.header('ETag'), progress };
        },
        { url: objectUrl!, path: large.path },
      ),
    );
    expect(put.status).toBe(201);
    // Storage computed the same MD5 as Node does over the same bytes: every byte arrived.
    expect(put.etag?.replaceAll('"', '')).toBe(md5(patternBytes(0, large.size, large.seed)));
    expect(put.progress.length).toBeGreaterThan(1);
    expect(put.progress.at(-1)).toBe(large.size);
    expect(put.progress.every((sent, i) => i === 0 || sent > put.progress[i - 1]!)).toBe(true);
    // The body is a slice of the file on disk: the page never holds the 64 MiB it sends.
    expect(peak - baseline).toBeLessThan(16 * MiB);

    const batch = grants.bulk_data.file_data[0]!;
    const cleanName = (p: string) => batch.cleaned_files.find((c) => c.path === p)!.clean_filename;
    const formStatus = await page.evaluate(
      async ({ batch, files }) => {
        const { transfer, writeOpfsFile, client } = window.lab;
        const sources = await Promise.all(
          files.map(async (f) =>
            transfer.FileHandleSource.open(await writeOpfsFile(f.path, f.size, f.seed), f.path),
          ),
        );
        const response = await client.request({
          method: 'POST',
          url: batch.url,
          body: {
            fields: [
              ['redirect', batch.redirect],
              ['max_file_size', String(batch.max_file_size)],
              ['max_file_count', String(batch.max_file_count)],
              ['expires', String(batch.expires)],
              ['signature', batch.sig],
            ],
            files: sources.map((source, i) => ({
              field: `file${i}`,
              filename: batch.cleaned_files.find((c) => c.path === source.path)!.clean_filename,
              content: source.slice(0, source.size),
            })),
          },
        });
        return response.status;
      },
      { batch, files: small },
    );
    expect(formStatus).toBeGreaterThanOrEqual(200);
    expect(formStatus).toBeLessThan(300);

    // The server checks each reported object in storage (its size) before it records it.
    const reported = [
      {
        etag: put.etag,
        object_path: storedObjectPath(grants.tempurl_data, largeObject),
        size_bytes: large.size,
        user_path: large.path,
      },
      ...small.map((f) => ({
        etag: md5(patternBytes(0, f.size, f.seed)),
        object_path: `${batch.object_prefix}${cleanName(f.path)}`,
        size_bytes: f.size,
        user_path: f.path,
      })),
    ];
    const recorded = await page.evaluate(
      ({ slug, files }) =>
        window.lab.api.call(window.lab.routes.packages.updateFiles, {
          params: { contract: 'demo', package: slug },
          body: { files },
        }),
      { slug: pkg.slug, files: reported },
    );
    expect(recorded.updated).toBe(reported.length);
  });

  it('resolves any HTTP status, and rejects a request that times out, is aborted or finds no server', async () => {
    const hanging = await hangingLabServer();
    const page = await openLab(browser, hanging.url);
    const closedUrl = `http://127.0.0.1:${await freePort()}`;
    try {
      const outcomes = await page.evaluate(
        async ({ hangingUrl, closedUrl }) => {
          const { client } = window.lab;
          type Request = Parameters<typeof client.request>[0];
          const outcome = async (request: Request) => {
            const started = performance.now();
            try {
              const response = await client.request(request);
              return { status: response.status, ms: performance.now() - started };
            } catch (error) {
              const { name, message, code } = error as Error & { code?: string };
              return { name, message, code, ms: performance.now() - started };
            }
          };
          const timedOut = await outcome({
            method: 'GET',
            url: `${hangingUrl}/slow?temp_url_sig=SECRET`,
            timeoutMs: 300,
          });
          const controller = new AbortController();
          setTimeout(() => controller.abort(new DOMException('Paused.', 'AbortError')), 200);
          const aborted = await outcome({
            method: 'PUT',
            url: `${hangingUrl}/segment`,
            body: new Blob([new Uint8Array(100_000)]),
            signal: controller.signal,
            onUploadProgress: () => undefined,
          });
          return {
            timedOut,
            aborted,
            abortedBefore: await outcome({
              method: 'GET',
              url: `${hangingUrl}/never`,
              signal: AbortSignal.abort(new DOMException('Cancelled.', 'AbortError')),
            }),
            refused: await outcome({ method: 'GET', url: `${closedUrl}/x` }),
            busy: await client.request({ method: 'GET', url: '/status/503' }).then(async (r) => ({
              status: r.status,
              retryAfter: r.header('Retry-After'),
              text: await r.text(),
            })),
          };
        },
        { hangingUrl: hanging.url, closedUrl },
      );

      expect(outcomes.timedOut).toMatchObject({ name: 'NoAnswerError', code: 'TIMEOUT' });
      expect(outcomes.timedOut.ms).toBeGreaterThanOrEqual(290);
      expect(outcomes.timedOut.ms).toBeLessThan(5000);
      // A signed URL's signature sits in its query; errors name the address without it.
      expect(outcomes.timedOut.message).toBe(`GET ${hanging.url}/slow: timed out`);
      expect(outcomes.aborted).toMatchObject({ name: 'AbortError', message: 'Paused.' });
      expect(outcomes.aborted.ms).toBeLessThan(2000);
      expect(outcomes.abortedBefore).toMatchObject({ name: 'AbortError', message: 'Cancelled.' });
      expect(outcomes.refused).toMatchObject({ name: 'NoAnswerError', code: 'NETWORK_ERROR' });
      expect(outcomes.busy).toEqual({ status: 503, retryAfter: '7', text: 'Busy, try later.' });
      // The aborted request's connection is closed; the one aborted before it started never left.
      await expect.poll(() => hanging.open).toBe(0);
      expect(hanging.paths).not.toContain('/never');
    } finally {
      await hanging.close();
    }
  });

  it('sends cookies to another origin only when told to', async () => {
    const lab = await hangingLabServer();
    const echo = await cookieEchoServer(lab.url);
    try {
      const page = await openLab(browser, lab.url);
      // Ports do not separate cookies: this one goes to both servers when credentials are sent.
      await page
        .context()
        .addCookies([{ name: 'session', value: 's3ss10n', domain: '127.0.0.1', path: '/' }]);
      const cookies = await page.evaluate(async (echoUrl) => {
        const { transfer } = window.lab;
        const cookieSeen = async (client: InstanceType<typeof transfer.XhrHttpClient>) =>
          (await client.request({ method: 'GET', url: `${echoUrl}/whoami` })).text();
        const echoPort = new URL(echoUrl).port;
        return {
          byDefault: await cookieSeen(new transfer.XhrHttpClient()),
          always: await cookieSeen(new transfer.XhrHttpClient({ withCredentials: true })),
          forTheApi: await cookieSeen(
            new transfer.XhrHttpClient({ withCredentials: (url) => url.port === echoPort }),
          ),
          forOthers: await cookieSeen(
            new transfer.XhrHttpClient({ withCredentials: (url) => url.port !== echoPort }),
          ),
        };
      }, echo.url);
      expect(cookies).toEqual({
        byDefault: '',
        always: 'session=s3ss10n',
        forTheApi: 'session=s3ss10n',
        forOthers: '',
      });
    } finally {
      await echo.close();
      await lab.close();
    }
  });
});

describe('picking files and resuming after a reload', () => {
  it('keeps upload ledgers in IndexedDB across a reload', async () => {
    const page = await openLab(browser, site.url);
    const ledger = { slug: 'pkg-a', batches: ['batch-1'], segments: { 'A001.mov': [0, 1, 2] } };
    await page.evaluate(async (ledger) => {
      const store = new window.lab.transfer.IndexedDbResumeStore();
      await store.put('pkg-a', ledger);
      await store.put('pkg-b', { slug: 'pkg-b', batches: [] });
    }, ledger);
    await reload(page);
    const after = await page.evaluate(async () => {
      const store = new window.lab.transfer.IndexedDbResumeStore();
      const kept = { keys: await store.keys(), a: await store.get('pkg-a') };
      await store.delete('pkg-a');
      return {
        ...kept,
        keysAfterDelete: await store.keys(),
        aAfterDelete: await store.get('pkg-a'),
      };
    });
    expect(after).toEqual({
      keys: ['pkg-a', 'pkg-b'],
      a: ledger,
      keysAfterDelete: ['pkg-b'],
      aAfterDelete: undefined,
    });
  });

  it('reads the same bytes through file and folder handles kept in IndexedDB after a reload', async () => {
    const page = await openLab(browser, site.url);
    const files = [
      { path: 'Shoot/Day 1/A001.mov', size: 3 * MiB + 17, seed: 11 },
      { path: 'Shoot/Day 1/A002.mov', size: 4096, seed: 12 },
      { path: 'Shoot/notes.txt', size: 0, seed: 13 },
      { path: 'cover.jpg', size: 20_000, seed: 14 },
    ];
    const before = await page.evaluate(async (files) => {
      const { transfer, writeOpfsFile, opfsDirectory, describe } = window.lab;
      for (const f of files) await writeOpfsFile(`picked/${f.path}`, f.size, f.seed);
      const folder = await opfsDirectory('picked/Shoot');
      const cover = await (await opfsDirectory('picked')).getFileHandle('cover.jpg');
      const picked: import('@filerunner/transfer/browser').PickedHandle[] = [
        { kind: 'directory', path: 'Shoot', handle: folder },
        { kind: 'file', path: 'cover.jpg', handle: cover },
      ];
      await new transfer.IndexedDbPickedHandleStore().put('pkg-handles', picked);
      return describe(await transfer.sourcesFromPickedHandles(picked));
    }, files);
    expect(before).toEqual(described(files));

    await reload(page);
    const after = await page.evaluate(async () => {
      const { transfer, describe } = window.lab;
      const picked = (await new transfer.IndexedDbPickedHandleStore().get('pkg-handles'))!;
      const permission = await transfer.queryReadPermission(picked);
      const granted = await transfer.requestReadPermission(picked);
      const sources = await transfer.sourcesFromPickedHandles(picked);
      return {
        kinds: picked.map((p) => [p.kind, p.path, p.handle instanceof FileSystemHandle]),
        permission,
        granted,
        keptHandles: sources.every((s) => s.handle instanceof FileSystemFileHandle),
        files: await describe(sources),
      };
    });
    expect(after).toEqual({
      kinds: [
        ['directory', 'Shoot', true],
        ['file', 'cover.jpg', true],
      ],
      permission: 'granted',
      granted: true,
      keptHandles: true,
      files: described(files),
    });
  });

  it('matches a folder picked again with a plain input by path, size and date', async () => {
    const page = await openLab(browser, site.url);
    const root = await mkdtemp(path.join(tmpdir(), 'filerunner-repick-'));
    const files = [
      { path: 'Shoot/Day 1/A001.mov', size: 5000, seed: 21 },
      { path: 'Shoot/Day 1/A002.mov', size: 6000, seed: 22 },
      { path: 'Shoot/Day 2/B001.mov', size: 7000, seed: 23 },
      { path: 'Shoot/notes.txt', size: 100, seed: 24 },
    ];
    const write = async (p: string, bytes: Uint8Array) => {
      await mkdir(path.dirname(path.join(root, p)), { recursive: true });
      await writeFile(path.join(root, p), bytes);
    };
    try {
      for (const f of files) await write(f.path, patternBytes(0, f.size, f.seed));
      await page.locator('#folder').setInputFiles(path.join(root, 'Shoot'));
      const recorded = await page.evaluate(() => {
        const input = document.querySelector<HTMLInputElement>('#folder')!;
        return window.lab.transfer
          .sourcesFromFileList(input.files!)
          .map(({ path, size, lastModified }) => ({ path, size, lastModified }));
      });
      expect(recorded.map((f) => f.path).sort()).toEqual(files.map((f) => f.path).sort());

      // After the reload the sender picks the folder again; meanwhile it changed on disk.
      await reload(page);
      await unlink(path.join(root, 'Shoot/Day 1/A002.mov'));
      await write('Shoot/notes.txt', patternBytes(0, 150, 25));
      const later = new Date(Date.now() + 60_000);
      await utimes(path.join(root, 'Shoot/Day 1/A001.mov'), later, later);
      await write('Shoot/extra.txt', patternBytes(0, 10, 26));
      await page.locator('#folder').setInputFiles(path.join(root, 'Shoot'));
      const match = await page.evaluate(async (recorded) => {
        const { transfer, describe } = window.lab;
        const input = document.querySelector<HTMLInputElement>('#folder')!;
        const result = transfer.matchRepickedFiles(
          recorded,
          transfer.sourcesFromFileList(input.files!),
        );
        return {
          matched: await describe(result.matched),
          missing: result.missing.map((f) => f.path),
          changed: result.changed.map((c) => c.recorded.path).sort(),
          unrecorded: result.unrecorded.map((s) => s.path),
        };
      }, recorded);
      expect(match).toEqual({
        matched: described([files[2]!]),
        missing: ['Shoot/Day 1/A002.mov'],
        changed: ['Shoot/Day 1/A001.mov', 'Shoot/notes.txt'],
        unrecorded: ['Shoot/extra.txt'],
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('walks a dropped folder into files with their folder paths, with handles or without', async () => {
    const page = await openLab(browser, site.url);
    const root = await mkdtemp(path.join(tmpdir(), 'filerunner-drop-'));
    // More frames than a directory reader gives at once (100 in Chromium).
    const frames = Array.from({ length: 150 }, (_, i) => ({
      path: `Shoot/Frames/f${String(i).padStart(3, '0')}.dpx`,
      size: 10 + i,
      seed: 100 + i,
    }));
    const files = [
      { path: 'Shoot/Day 1/A001.mov', size: 9000, seed: 31 },
      { path: 'Shoot/Day 1/Sub/deep.txt', size: 10, seed: 32 },
      { path: 'Shoot/notes.txt', size: 300, seed: 33 },
      { path: 'poster.png', size: 1234, seed: 34 },
      ...frames,
    ];
    const drop = async () => {
      // A drop from the desktop, as Chromium delivers it: real paths on disk.
      const box = (await page.locator('#drop-zone').boundingBox())!;
      const cdp = await page.context().newCDPSession(page);
      const data = {
        items: [],
        files: [path.join(root, 'Shoot'), path.join(root, 'poster.png')],
        dragOperationsMask: 1,
      };
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await cdp.send('Input.dispatchDragEvent', { type, x: box.x + 50, y: box.y + 50, data });
      }
      return page.evaluate(async () => {
        const { sources, picked } = (await window.lab.dropped)!;
        return {
          picked: picked.map((p) => [p.kind, p.path]),
          withHandles: sources.map((s) => 'handle' in s),
          files: await window.lab.describe(sources),
        };
      });
    };
    try {
      for (const f of files) {
        await mkdir(path.dirname(path.join(root, f.path)), { recursive: true });
        await writeFile(path.join(root, f.path), patternBytes(0, f.size, f.seed));
      }
      expect(await drop()).toEqual({
        picked: [
          ['directory', 'Shoot'],
          ['file', 'poster.png'],
        ],
        withHandles: files.map(() => true),
        files: described(files),
      });

      // A browser without handles for dropped items (Firefox, Safari) walks the older entries.
      await page.evaluate(() =>
        Reflect.deleteProperty(DataTransferItem.prototype, 'getAsFileSystemHandle'),
      );
      expect(await drop()).toEqual({
        picked: [],
        withHandles: files.map(() => false),
        files: described(files),
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('hashing in a worker', () => {
  it("gives hash-wasm's xxh128 for a 64 MiB file and for an empty one", async () => {
    const page = await openLab(browser, site.url);
    const size = 64 * MiB;
    const digests = await page.evaluate(async (size) => {
      const { transfer, writeOpfsFile, hasher } = window.lab;
      const handle = await writeOpfsFile('hashed/64.bin', size, 64);
      const source = await transfer.FileHandleSource.open(handle, 'hashed/64.bin');
      const empty = new transfer.FileSource(new File([], 'empty.txt'));
      return { large: await hasher.xxh128(source), empty: await hasher.xxh128(empty) };
    }, size);
    expect(digests).toEqual({
      large: await xxhash128(patternBytes(0, size, 64)),
      empty: await xxhash128(new Uint8Array(0)),
    });
  });

  it('hashes a 256 MiB file holding a small part of it in memory, and can be cancelled', async () => {
    const page = await openLab(browser, site.url);
    const size = 256 * MiB;
    await page.evaluate(async (size) => {
      const { transfer, writeOpfsFile, hasher } = window.lab;
      await writeOpfsFile('hashed/256.bin', size, 256);
      // Starts the worker, so its memory can be measured from the first byte.
      await hasher.xxh128(new transfer.FileSource(new File(['warm up'], 'warm.txt')));
    }, size);
    const pageHeap = await pageHeapMeter(page);
    const workerHeap = await workerHeapMeter(browser, page, 'hash-worker');
    const pageBaseline = await pageHeap({ settle: true });
    const hashOf256 = () =>
      page.evaluate(async () => {
        const { transfer, opfsDirectory, hasher } = window.lab;
        const handle = await (await opfsDirectory('hashed')).getFileHandle('256.bin');
        return hasher.xxh128(await transfer.FileHandleSource.open(handle, '256.bin'));
      });

    const inWorker = await peakWhile(workerHeap, hashOf256());
    const inPage = await peakWhile(pageHeap, hashOf256());
    expect(inWorker.result).toBe(await xxhash128InChunks(size, 256));
    expect(inPage.result).toBe(inWorker.result);
    expect(inWorker.samples).toBeGreaterThan(2);
    expect(inWorker.peak).toBeLessThan(32 * MiB);
    expect(inPage.peak - pageBaseline).toBeLessThan(16 * MiB);

    const cancelled = await page.evaluate(async () => {
      const { transfer, opfsDirectory, hasher } = window.lab;
      const handle = await (await opfsDirectory('hashed')).getFileHandle('256.bin');
      const source = await transfer.FileHandleSource.open(handle, '256.bin');
      const controller = new AbortController();
      const hashing = hasher.xxh128(source, controller.signal);
      setTimeout(() => controller.abort(new DOMException('Cancelled.', 'AbortError')), 20);
      const outcome = await hashing.then(
        () => 'finished',
        (error: Error) => `${error.name}: ${error.message}`,
      );
      // The worker is still there for the next file.
      const next = await hasher.xxh128(new transfer.FileSource(new File(['abc'], 'abc.txt')));
      return { outcome, next };
    });
    expect(cancelled).toEqual({
      outcome: 'AbortError: Cancelled.',
      next: await xxhash128(new TextEncoder().encode('abc')),
    });
  });

  it('refuses to hash a file that changed on disk after it was picked', async () => {
    expect(await failureOnChangedFile(await openLab(browser, site.url), 'hash')).toEqual(
      changedFileFailure,
    );
  });

  it('packs a slab of small files into memory: the joined bytes, and the xxh128 of each file', async () => {
    const page = await openLab(browser, site.url);
    // 150 files (three groups of reads), sizes around a tar block, one of them empty.
    const files = Array.from({ length: 150 }, (_, i) => ({ size: (i * 97) % 1300, seed: 500 + i }));
    const packed = await page.evaluate(async (files) => {
      const { transfer, writeOpfsFile, sha256Hex, hasher } = window.lab;
      const parts: (Uint8Array<ArrayBuffer> | Blob)[] = [];
      const hashed: number[] = [];
      for (const [i, file] of files.entries()) {
        const handle = await writeOpfsFile(`slab/f${i}.bin`, file.size, file.seed);
        const source = await transfer.FileHandleSource.open(handle, `f${i}.bin`);
        // A header's worth of bytes before each file, as a tar has.
        parts.push(new Uint8Array(512).fill(i % 256));
        if (file.size === 0) continue;
        hashed.push(parts.length);
        parts.push(source.slice(0, source.size));
      }
      const { body, hashes } = await hasher.pack(parts, hashed);
      return {
        size: body.size,
        sha256: await sha256Hex(body),
        joined: await sha256Hex(new Blob(parts)),
        hashes,
      };
    }, files);

    expect(packed.sha256).toBe(packed.joined);
    expect(packed.size).toBe(files.reduce((sum, f) => sum + 512 + f.size, 0));
    const expected = files.filter((f) => f.size > 0).map((f) => patternBytes(0, f.size, f.seed));
    expect(packed.hashes).toEqual(await Promise.all(expected.map((bytes) => xxhash128(bytes))));
  });

  it('refuses to pack a slab with a file that changed on disk after it was picked', async () => {
    expect(await failureOnChangedFile(await openLab(browser, site.url), 'pack')).toEqual(
      changedFileFailure,
    );
  });
});

/** What the hasher answers for a file that changed on disk after it was picked. */
const changedFileFailure = {
  name: 'FileHashError',
  code: 'HASH_FAILED',
  reason: 'NotReadableError',
};

/**
 * How the lab's hasher fails when a picked file changes on disk before it is read: hashing that
 * file alone, or packing it in a slab after a file that did not change.
 */
function failureOnChangedFile(page: Page, how: 'hash' | 'pack') {
  return page.evaluate(async (how) => {
    const { transfer, writeOpfsFile, hasher } = window.lab;
    const kept = await writeOpfsFile(`${how}/kept.bin`, 4000, 51);
    const edited = await writeOpfsFile(`${how}/edited.bin`, 4000, 52);
    const keptSource = await transfer.FileHandleSource.open(kept, 'kept.bin');
    const editedSource = await transfer.FileHandleSource.open(edited, 'edited.bin');
    await writeOpfsFile(`${how}/edited.bin`, 5000, 53);
    const work =
      how === 'hash'
        ? hasher.xxh128(editedSource)
        : hasher.pack([keptSource.slice(0, 4000), editedSource.slice(0, 4000)], [0, 1]);
    return work.then(
      () => null,
      (error: Error & { code?: string; reason?: string }) => ({
        name: error.name,
        code: error.code,
        reason: error.reason,
      }),
    );
  }, how);
}

/** xxh128 of a pattern file computed in Node a chunk at a time (hash-wasm, as the worker). */
async function xxhash128InChunks(size: number, seed: number): Promise<string> {
  const hasher = await createXXHash128();
  hasher.init();
  for (let offset = 0; offset < size; offset += 16 * MiB) {
    hasher.update(patternBytes(offset, Math.min(16 * MiB, size - offset), seed));
  }
  return hasher.digest('hex');
}

/**
 * A server that serves the lab page (without the app's CSP, which would refuse other origins)
 * and a chosen status at /status/<code>, and answers nothing else: it counts those requests and
 * those whose connection is still open.
 */
async function hangingLabServer() {
  const state = { open: 0, paths: [] as string[] };
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const httpServer: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://lab');
    if (pathname === '/' || pathname.startsWith('/assets/')) {
      const file = path.join(labDist, pathname === '/' ? 'index.html' : pathname);
      void readFile(file).then((bytes) => {
        response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'text/plain' });
        response.end(bytes);
      });
      return;
    }
    if (pathname.startsWith('/status/')) {
      response.writeHead(Number(pathname.slice('/status/'.length)), { 'retry-after': '7' });
      response.end('Busy, try later.');
      return;
    }
    if (pathname === '/favicon.ico') {
      response.writeHead(404).end();
      return;
    }
    state.paths.push(pathname);
    state.open++;
    response.on('close', () => state.open--);
    // Reading the body is how the server notices the client closing the connection.
    request.resume();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const address = httpServer.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get open() {
      return state.open;
    },
    paths: state.paths,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/** A server on another origin that lets `origin` send credentials, and answers the cookies it got. */
async function cookieEchoServer(origin: string) {
  const httpServer = createServer((request, response) => {
    response.writeHead(200, {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'content-type': 'text/plain',
    });
    response.end(request.headers.cookie ?? '');
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const address = httpServer.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
