import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { api } from '@filerunner/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  DEMO_PASSWORD,
  launchBrowser,
  prepareSite,
  productOfFile,
  startServer,
  type RunningServer,
  type Site,
} from './harness';
import { signedIn } from './pages';
import { answerPickerWith, readPicked } from './picked-folder';
import { GRADE_NOTES, sendDemoPackage } from './sent-package';
import type { LabMember } from './transfer-browser/download-lab';
import { buildLab, MiB, openLab, reload } from './transfer-browser/lab-harness';
import { patternBytes } from './transfer-browser/pattern';

// The download side of the transfer engine's browser entry in Chromium: the folder sink writing
// into a folder of the origin-private file system (the same FileSystemDirectoryHandle a picked
// folder is; headless Chromium cannot answer the native picker), the default folder kept in
// IndexedDB, and the fetch client reading a ranged answer of the real server as it streams.

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

/** Path, size and SHA-256 of members as Node makes their bytes, sorted by path. */
const described = (members: LabMember[]) =>
  members
    .map((m) => ({ path: m.path, size: m.size, sha256: sha256(patternBytes(0, m.size, m.seed)) }))
    .sort((a, b) => a.path.localeCompare(b.path));

const awkwardMembers: LabMember[] = [
  { path: `Rushes/${'A very long take name '.repeat(9)}.mov`, size: 300_000, seed: 1 },
  // The same name composed (NFC) and decomposed (NFD): two different files, both kept.
  { path: 'Grade/Pr\u00e4sentation \u00fcber.pdf', size: 70_000, seed: 2 },
  { path: 'Grade/Pra\u0308sentation u\u0308ber.pdf', size: 70_001, seed: 3 },
  { path: 'a/b/c/d/e/f/g/h/i/j/k/l/deep.bin', size: 1_000_000, seed: 4 },
  { path: 'Empty/zero.txt', size: 0, seed: 5 },
  { path: 'Also empty', size: 0, seed: 6 },
  ...Array.from({ length: 12 }, (_, i) => ({
    path: `Frames/f${String(i).padStart(4, '0')}.dpx`,
    size: 20_000 + i,
    seed: 10 + i,
  })),
];

describe('unpacking into a folder', () => {
  it.each([
    ['awaited', false],
    ['async', true],
  ])(
    'lands long, Unicode, deep and empty names byte-identical from chunks out of order (%s writes)',
    async (_, asyncWrites) => {
      const page = await openLab(browser, site.url);
      // Names this Chromium's own file system would take, or not, but Windows would not.
      const refusedNames = [
        { path: 'Odd/back\\slash.txt', size: 5_000, seed: 99 },
        { path: 'Odd\\folder/inside.txt', size: 3_000, seed: 98 },
        { path: 'Odd/CON.txt', size: 2_000, seed: 97 },
        { path: 'Odd/lpt1/inside.txt', size: 2_000, seed: 96 },
        { path: 'Odd/trailing dot.', size: 2_000, seed: 95 },
        { path: 'Odd/C:\\Windows\\evil.dll', size: 2_000, seed: 94 },
      ];
      const members = [...awkwardMembers.slice(0, 3), ...refusedNames, ...awkwardMembers.slice(3)];
      const result = await page.evaluate(
        async ({ members, asyncWrites }) => {
          const { downloads, opfsDirectory } = window.lab;
          const folder = await opfsDirectory('Received');
          const run = await downloads.unpackInto(folder, members, {
            chunkSize: 128 * 1024,
            parallel: 4,
            pieceSize: 16 * 1024,
            asyncWrites,
          });
          return { ...run, sink: undefined, files: await downloads.describeFolder(folder) };
        },
        { members, asyncWrites },
      );
      expect(result.fatal).toBeNull();
      // A name that would not stay inside the folder on every system, of a file or of a folder
      // on its path, fails that file alone, before the browser is asked.
      const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
      expect(result.failed.sort(byPath)).toEqual(
        [...refusedNames].sort(byPath).map(({ path }) => ({
          path,
          kind: 'name',
          fatal: false,
          message: `${JSON.stringify(path)}: not a name that stays inside the folder on every system`,
        })),
      );
      expect(result.files).toEqual(described(awkwardMembers));
      expect(result.mostOpen).toBeLessThanOrEqual(10);
      // Every written file went pending, writing, closing, closed, in that order.
      const deep = members.findIndex((m) => m.path.endsWith('deep.bin'));
      const deepStates = result.states.filter((s) => s.startsWith(`${deep}:`));
      expect(deepStates).toEqual([
        `${deep}:pending`,
        `${deep}:writing`,
        `${deep}:closing`,
        `${deep}:closed`,
      ]);
    },
  );

  it('writes the .tar itself into the folder from chunks out of order', async () => {
    const page = await openLab(browser, site.url);
    const tar = { path: 'Dailies 12.tar', size: 3 * MiB + 512, seed: 77 };
    const result = await page.evaluate(async (tar) => {
      const { downloads, opfsDirectory } = window.lab;
      const folder = await opfsDirectory('Tars');
      const run = await downloads.unpackInto(folder, [tar], {
        mode: 'tar',
        chunkSize: 256 * 1024,
        parallel: 5,
      });
      return { failed: run.failed, files: await downloads.describeFolder(folder) };
    }, tar);
    expect(result).toEqual({ failed: [], files: described([tar]) });
  });

  it('finds closed files again by name and size, and discards one that failed its check', async () => {
    const page = await openLab(browser, site.url);
    const result = await page.evaluate(async (members) => {
      const { downloads, opfsDirectory, transfer } = window.lab;
      const folder = await opfsDirectory('Again');
      await downloads.unpackInto(folder, members.slice(0, 6), { chunkSize: 100_000, parallel: 2 });
      // A second run over the whole package, as after a crash: the first six are found again.
      const again = new transfer.FolderSink(folder, { mode: 'unpack' });
      const targets = members.map((m, index) => ({ index, path: m.path, size: m.size }));
      // The ledger's finished files of the first run: the download's own.
      const { resumable } = await again.open(targets, undefined, new Set([0, 1, 2, 3, 4, 5]));
      const read = await again.read(0);
      await again.discard(1);
      const files = await downloads.describeFolder(folder);
      return {
        resumable: [...resumable].sort(),
        readSize: read.size,
        files: files.map((f) => f.path),
      };
    }, awkwardMembers);
    // Non-empty files written by the first run; the empty ones need nothing.
    expect(result.resumable).toEqual([0, 1, 2, 3]);
    expect(result.readSize).toBe(awkwardMembers[0]!.size);
    expect(result.files).not.toContain(awkwardMembers[1]!.path);
    expect(result.files).toContain(awkwardMembers[2]!.path);
  });

  it('writes over no file it did not make, unless told; a claimed run goes on over its own', async () => {
    const page = await openLab(browser, site.url);
    const members = awkwardMembers.slice(3, 9);
    const result = await page.evaluate(async (members) => {
      const { downloads, opfsDirectory, writeOpfsFile, transfer } = window.lab;
      const folder = await opfsDirectory('Kept');
      // The person's own file at one of the package's names, and one beside them.
      await writeOpfsFile('Kept/Frames/f0000.dpx', 1_000, 77);
      await writeOpfsFile('Kept/Frames/mine.txt', 10, 78);
      const targets = members.map((m, index) => ({ index, path: m.path, size: m.size }));
      const refusal = await new transfer.FolderSink(folder, { mode: 'unpack' }).open(targets).then(
        () => null,
        (error: { kind: string; message: string; files: string[] }) => ({
          kind: error.kind,
          message: error.message,
          files: error.files,
        }),
      );
      const untouched = await downloads.describeFolder(folder);
      // A run the person cut off: some files closed, others made and half written, none checked.
      const cut = await downloads.unpackInto(folder, members, {
        chunkSize: 50_000,
        parallel: 2,
        replace: ['Frames/f0000.dpx'],
        stopAfterBytes: 600_000,
      });
      // The next run of the same download, its names claimed by the ledger: no question asked.
      const resumed = new transfer.FolderSink(folder, { mode: 'unpack' });
      const resumedOpen = await resumed.open(targets, undefined, new Set(), true).then(
        () => 'opened',
        (error: Error) => error.message,
      );
      await resumed.dispose();
      // Without the claim, the half files it left would be taken for the person's.
      const unclaimed = await new transfer.FolderSink(folder, { mode: 'unpack' })
        .open(targets)
        .then(
          () => [],
          (error: { files: string[] }) => error.files,
        );
      const done = await downloads.unpackInto(folder, members, {
        chunkSize: 50_000,
        parallel: 2,
        claimed: true,
      });
      return {
        refusal,
        untouched,
        cutFatal: cut.fatal,
        resumedOpen,
        unclaimed,
        doneFailed: done.failed,
        files: await downloads.describeFolder(folder),
      };
    }, members);
    // Nothing was written: the file is the person's as it was, and nothing else was made.
    expect(result.refusal).toEqual({
      kind: 'occupied',
      message: 'The folder already holds files this download did not write: "Frames/f0000.dpx".',
      files: ['Frames/f0000.dpx'],
    });
    expect(result.untouched.map(({ path, size }) => ({ path, size }))).toEqual([
      { path: 'Frames/f0000.dpx', size: 1_000 },
      { path: 'Frames/mine.txt', size: 10 },
    ]);
    expect(result.cutFatal).toMatchObject({ message: 'stopped' });
    expect(result.resumedOpen).toBe('opened');
    expect(result.unclaimed.length).toBeGreaterThan(0);
    expect(result.doneFailed).toEqual([]);
    // Replaced only where the person said so; their other file is still there.
    const mine = result.files.find((f) => f.path === 'Frames/mine.txt');
    expect(mine?.size).toBe(10);
    expect(result.files.filter((f) => f.path !== 'Frames/mine.txt')).toEqual(described(members));
  });

  it('keeps at most 10 files open, parking idle ones, and every byte still lands', async () => {
    const page = await openLab(browser, site.url);
    const members = Array.from({ length: 30 }, (_, i) => ({
      path: `Stills/${i}.tif`,
      size: 50_000,
      seed: 200 + i,
    }));
    const result = await page.evaluate(async (members) => {
      const { downloads, opfsDirectory } = window.lab;
      const folder = await opfsDirectory('Stills folder');
      // Half a file per chunk, 30 chunks at once: far more files wanted than may be open.
      const run = await downloads.unpackInto(folder, members, {
        chunkSize: 25_000,
        parallel: 30,
        pieceSize: 5_000,
      });
      return { ...run, sink: undefined, files: await downloads.describeFolder(folder) };
    }, members);
    expect(result.fatal).toBeNull();
    expect(result.failed).toEqual([]);
    expect(result.mostOpen).toBe(10);
    // Some file was parked (closed early, back to pending) and opened again later.
    const parked = members.some((_, i) => {
      const states = result.states.filter((s) => s.startsWith(`${i}:`)).join(' ');
      return states.includes(`${i}:closing ${i}:pending ${i}:writing`);
    });
    expect(parked).toBe(true);
    expect(result.files).toEqual(described(members));
  });
});

describe('a picked folder that already holds a file of the package', () => {
  const product = productOfFile();
  const [notes, lut] = GRADE_NOTES.files;
  const theirs = Buffer.from('Notes the recipient keeps.\n');
  beforeAll(async () => {
    await sendDemoPackage(product.server.url, { sender: 'sender@example.com', ...GRADE_NOTES });
  });

  it('stops, names the file and leaves it; Replace files replaces it', async () => {
    const page = await signedIn(product, 'recipient@example.com');
    await page.waitForURL((url) => url.pathname === '/inbox');
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Grade notes' }).waitFor();
    await page.evaluate(
      async (bytes) => {
        const root = await navigator.storage.getDirectory();
        const grade = await (
          await root.getDirectoryHandle('Reviews', { create: true })
        ).getDirectoryHandle('Grade', { create: true });
        const writable = await (
          await grade.getFileHandle('notes.txt', { create: true })
        ).createWritable();
        await writable.write(new Uint8Array(bytes));
        await writable.close();
      },
      [...theirs],
    );
    await answerPickerWith(page, 'Reviews');
    await page.getByRole('button', { name: 'Download All' }).click();
    await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
    await page.getByRole('button', { name: /^Download queue:/ }).click();
    const item = page
      .getByRole('dialog', { name: 'Download queue' })
      .getByRole('listitem', { name: 'Grade notes' });
    await expect.poll(() => item.getByTestId('upload-status').innerText()).toBe('Failed');
    expect(await item.getByRole('alert').innerText()).toContain(
      'This folder already has a file with the same name as the package’s: "Grade/notes.txt". Nothing was downloaded.',
    );
    // Nothing was written: their file is as it was, the package's other file is not there.
    expect((await readPicked(page, 'Reviews', 'Grade/notes.txt'))?.equals(theirs)).toBe(true);
    expect(await readPicked(page, 'Reviews', lut!.path)).toBeNull();

    await item.getByRole('button', { name: 'Replace files' }).click();
    await page
      .getByRole('dialog', { name: 'Replace files?' })
      .getByRole('button', { name: 'Replace' })
      .click();
    await expect.poll(() => item.getByTestId('upload-status').innerText()).toBe('Completed');
    expect((await readPicked(page, 'Reviews', notes!.path))?.equals(notes!.bytes)).toBe(true);
    expect((await readPicked(page, 'Reviews', lut!.path))?.equals(lut!.bytes)).toBe(true);
    await page.context().close();
  });
});

describe('a folder that can no longer be written', () => {
  it('stops the download when the folder is removed', async () => {
    const page = await openLab(browser, site.url);
    const result = await page.evaluate(async () => {
      const { opfsDirectory, transfer } = window.lab;
      const parent = await opfsDirectory('Parent');
      const folder = await parent.getDirectoryHandle('Doomed', { create: true });
      const sink = new transfer.FolderSink(folder, { mode: 'unpack' });
      await sink.open([
        { index: 0, path: 'one.bin', size: 10 },
        { index: 1, path: 'Sub/two.bin', size: 10 },
      ]);
      await sink.write(0, 0, new Uint8Array(10));
      await sink.close(0);
      await parent.removeEntry('Doomed', { recursive: true });
      const failure = async (work: Promise<unknown>) =>
        work.then(
          () => null,
          (error: { kind: string; fatal: boolean; message: string }) => ({
            kind: error.kind,
            fatal: error.fatal,
            message: error.message,
          }),
        );
      return {
        write: await failure(sink.write(1, 0, new Uint8Array(10))),
        // Every later call answers the same: the download cannot go on.
        read: await failure(sink.read(0)),
      };
    });
    const gone = {
      kind: 'directory_handle_invalid',
      fatal: true,
      message: 'The folder can no longer be reached',
    };
    expect(result).toEqual({ write: gone, read: gone });
  });

  it.each([
    ['awaited', false],
    ['async', true],
  ])('stops the download when the disk is full (%s writes)', async (_, asyncWrites) => {
    const page = await openLab(browser, site.url);
    const cdp = await page.context().newCDPSession(page);
    // A real QuotaExceededError: the origin's storage quota made smaller than the download.
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: new URL(site.url).origin,
      quotaSize: 2 * MiB,
    });
    const result = await page.evaluate(async (asyncWrites) => {
      const { downloads, opfsDirectory } = window.lab;
      const folder = await opfsDirectory('Full');
      const run = await downloads.unpackInto(
        folder,
        [
          { path: 'small.bin', size: 100_000, seed: 1 },
          { path: 'large.bin', size: 8 * 1024 * 1024, seed: 2 },
        ],
        { chunkSize: 1024 * 1024, parallel: 2, asyncWrites },
      );
      return { fatal: run.fatal, failed: run.failed };
    }, asyncWrites);
    expect(result.fatal).toEqual({
      kind: 'quota_exceeded',
      message: 'There is not enough space left',
    });
    expect(result.failed.some((f) => f.kind === 'quota_exceeded' && f.fatal)).toBe(true);
  });
});

describe('choosing the download folder', () => {
  it('keeps a default folder per person across a reload, beside the older stores', async () => {
    const page = await openLab(browser, site.url);
    // A browser that ran the upload engine before: version 2 of the database, with a ledger.
    await page.evaluate(async () => {
      const request = indexedDB.open('filerunner-transfer', 2);
      request.onupgradeneeded = () => {
        for (const store of ['ledgers', 'picked-handles', 'uploads']) {
          request.result.createObjectStore(store);
        }
        request.transaction!.objectStore('ledgers').put({ sent: 3 }, 'old-upload');
      };
      const db = await new Promise<IDBDatabase>(
        (resolve) => (request.onsuccess = () => resolve(request.result)),
      );
      db.close();
      const { opfsDirectory, transfer } = window.lab;
      const folders = new transfer.DefaultDownloadFolders();
      await folders.save('recipient@example.com', await opfsDirectory('Dailies'));
      await new transfer.IndexedDbDownloadResumeStore().put('a-download', { files: [1] });
    });
    await reload(page);
    const result = await page.evaluate(async () => {
      const { opfsDirectory, transfer } = window.lab;
      const folders = new transfer.DefaultDownloadFolders();
      const kept = await folders.get('recipient@example.com');
      const other = await folders.get('sender@example.com');
      const saveFailure = await folders
        .save(
          'recipient@example.com',
          (() => 'not a folder') as unknown as FileSystemDirectoryHandle,
        )
        .then(
          () => null,
          (error: Error & { code: string }) => ({ code: error.code, message: error.message }),
        );
      return {
        name: kept?.name,
        same: kept ? await kept.isSameEntry(await opfsDirectory('Dailies')) : false,
        other: other ?? null,
        saveFailure,
        uploadLedger: await new transfer.IndexedDbResumeStore().get('old-upload'),
        downloadLedger: await new transfer.IndexedDbDownloadResumeStore().get('a-download'),
      };
    });
    expect(result).toEqual({
      name: 'Dailies',
      same: true,
      other: null,
      saveFailure: {
        code: 'default_not_saved',
        message:
          'Sorry, We failed to set that as your default download location. Try again, and if the problem persists contact our support team.',
      },
      uploadLedger: { sent: 3 },
      downloadLedger: { files: [1] },
    });
  });

  it('refuses a system folder and accepts another, with write access', async () => {
    const page = await openLab(browser, site.url);
    const result = await page.evaluate(async () => {
      const { opfsDirectory, transfer } = window.lab;
      const answers = [await opfsDirectory('Downloads'), await opfsDirectory('Grading')];
      // The picker as the person answers it: first Downloads, then a folder of their own.
      Object.assign(window, { showDirectoryPicker: async () => answers.shift() });
      const refused = await transfer.pickDownloadFolder().then(
        () => null,
        (error: Error & { code: string }) => ({ code: error.code, message: error.message }),
      );
      const picked = await transfer.pickDownloadFolder();
      return { hasAccess: transfer.hasFolderAccess(), refused, picked: picked.name };
    });
    expect(result).toEqual({
      hasAccess: true,
      refused: {
        code: 'system_folder',
        message:
          'Downloads, Documents and Desktop cannot be chosen as a download folder. Choose or create a folder inside one of them.',
      },
      picked: 'Grading',
    });
  });
});

describe('the download client over fetch', () => {
  it('streams a 20 MiB ranged answer of a grant as it arrives', async () => {
    const bytes = Buffer.from(patternBytes(0, 24 * MiB, 42));
    const slug = await sendDemoPackage(site.url, {
      sender: 'sender@example.com',
      recipients: ['recipient@example.com'],
      name: 'Ranged',
      message: '',
      files: [{ path: 'Rushes/A001.mov', bytes }],
    });
    const rita = await apiLogin(site.url, 'recipient@example.com', DEMO_PASSWORD);
    const grant = await rita.call(api.downloads.fileGrant, {
      params: { slug, '*': 'Rushes/A001.mov' },
    });
    const page = await openLab(browser, site.url);
    const answer = await page.evaluate(async (url) => {
      const { transfer, sha256Hex } = window.lab;
      const response = await new transfer.FetchHttpClient().request({
        method: 'GET',
        url,
        headers: { range: `bytes=1000-${20 * 1024 * 1024 + 999}` },
      });
      const pieces: Uint8Array<ArrayBuffer>[] = [];
      for await (const piece of response.body!()) pieces.push(piece as Uint8Array<ArrayBuffer>);
      return {
        status: response.status,
        range: response.header('content-range'),
        pieces: pieces.length,
        largestPiece: Math.max(...pieces.map((p) => p.byteLength)),
        sha256: await sha256Hex(new Blob(pieces)),
      };
    }, grant.download_url);
    expect(answer).toEqual({
      status: 206,
      range: `bytes 1000-${20 * MiB + 999}/${bytes.length}`,
      pieces: expect.any(Number) as number,
      largestPiece: expect.any(Number) as number,
      sha256: sha256(bytes.subarray(1000, 20 * MiB + 1000)),
    });
    // Handed over as it came, in pieces far smaller than the range: never held whole.
    expect(answer.pieces).toBeGreaterThan(1);
    expect(answer.largestPiece).toBeLessThan(4 * MiB);
  });
});
