/**
 * Figures (a) to (c) of the download engine: the web app in headless Chromium, signed in as the
 * recipient, unpacking a package into a folder of the origin-private file system (the picker
 * answered as the e2e suites answer it; every file's xxh128 checked), beside a bare page of the
 * same origin that does the least the same result needs:
 *
 * - one large file: the tar fetched in 4 ranges at once into one file of a folder, through one
 *   writable stream with positioned writes (as the engine writes);
 * - many small files: the same files written from memory into a folder, 10 at once (as many as
 *   the engine keeps open), each created, written and closed: the file system's ceiling.
 *
 * Each transfer runs in a Chromium of its own with a fresh profile on disk (so the private file
 * system, the engine's IndexedDB ledger and the session start empty); its CPU (every Chromium
 * process) and the server's are read from /proc over the transfer, the page's heap sampled.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { hundredths } from '../figures';
import { against, rounds, transferFigure, type Figure, type Unit } from '../upload/cases';
import { heapWhile, launchBenchBrowser, type BenchBrowser } from '../upload/browser';
import type { Parties } from '../upload/measure';

const GiB = 1024 ** 3;
const RANGES = 4;
/** Files the bare page writes at once: the engine's folder sink keeps 10 open. */
const FILES_AT_ONCE = 10;
// Not 'Downloads': the app refuses system folders' names.
const FOLDER = 'Received';

/** A package as seed.ts made it: the tar's grant path and size, its files' count and bytes. */
export interface SeededPackage {
  slug: string;
  name: string;
  tar: string;
  size: number;
  files: number;
  bytes: number;
}

/** A bare page's way to the same result, and what it leaves in the folder. */
interface Baseline {
  name: string;
  lands: { files: number; bytes: number };
  transfer: (page: Page) => Promise<{ seconds: number }>;
}

export interface BrowserSetup {
  origin: string;
  /** The server and its database; the client (Chromium) is added per transfer. */
  parties: Parties;
  workDir: string;
  recipient: { email: string; password: string };
  large: SeededPackage;
  many: SeededPackage;
  runs: number;
  log: (message: string) => void;
}

/**
 * The page's globals, as far as the page-side functions below use them: bench/ type-checks
 * without the DOM library (the server's code it imports does not build with it).
 */
interface PageFolder {
  readonly kind: 'directory';
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<PageFolder>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<PageFile>;
  entries(): AsyncIterable<[string, PageFolder | PageFile]>;
}
interface PageFile {
  readonly kind: 'file';
  createWritable(): Promise<{
    write(data: Uint8Array | { type: 'write'; position: number; data: Uint8Array }): Promise<void>;
    close(): Promise<void>;
  }>;
  getFile(): Promise<{ size: number }>;
}
interface PageElement {
  readonly textContent: string | null;
  closest(selector: string): PageElement | null;
}
interface DownloadTiming {
  started: number;
  ended: number;
  status: string;
}
interface PageGlobals {
  navigator: { storage: { getDirectory(): Promise<PageFolder> } };
  document: {
    body: unknown;
    addEventListener(
      type: 'click',
      listener: (event: { target: PageElement | null }) => void,
      options: { capture: boolean },
    ): void;
    querySelectorAll(selector: string): Iterable<PageElement>;
  };
  MutationObserver: new (changed: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void;
  };
  downloadBench?: DownloadTiming;
}

let profiles = 0;

/**
 * One transfer in a fresh Chromium: `prepare` (signing in, opening the package) before the
 * clock, `transfer` measured with the heap sampled, then what landed in the folder counted and
 * checked against what was sent.
 */
async function inFreshBrowser(
  setup: BrowserSetup,
  unit: Unit,
  amount: number,
  expected: { files: number; bytes: number },
  prepare: (browser: BenchBrowser) => Promise<void>,
  transfer: (page: Page) => Promise<{ seconds: number } & Record<string, unknown>>,
): Promise<Figure> {
  const userDataDir = path.join(setup.workDir, `chromium-${++profiles}`);
  const browser = await launchBenchBrowser(userDataDir);
  try {
    await prepare(browser);
    const parties = { ...setup.parties, client: browser.pid };
    const { result, ...heap } = await heapWhile(browser, () =>
      transferFigure(parties, unit, amount, 'browser', () => transfer(browser.page)),
    );
    const landed = await inFolder(browser.page);
    if (landed.files_landed !== expected.files || landed.bytes_landed !== expected.bytes) {
      throw new Error(
        `expected ${expected.files} files of ${expected.bytes} bytes in the folder, found ${landed.files_landed} of ${landed.bytes_landed}`,
      );
    }
    return { ...result, ...landed, ...heap };
  } finally {
    await browser.context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

/** How many files the private folder holds, and their bytes. */
function inFolder(page: Page) {
  return page.evaluate(async (folderName) => {
    const { navigator } = globalThis as unknown as PageGlobals;
    const landed = { files_landed: 0, bytes_landed: 0, manifest_files: 0 };
    // No named functions in here: tsx names them through a helper the page does not have.
    const folders = [await (await navigator.storage.getDirectory()).getDirectoryHandle(folderName)];
    for (let folder = folders.pop(); folder; folder = folders.pop()) {
      for await (const [name, entry] of folder.entries()) {
        if (entry.kind === 'directory') folders.push(entry);
        else {
          // The engine leaves an ASC MHL manifest of what it checked beside the files.
          if (name.endsWith('.mhl') || name === 'ascmhl_chain.xml') {
            landed.manifest_files++;
            continue;
          }
          landed.files_landed++;
          landed.bytes_landed += (await entry.getFile()).size;
        }
      }
    }
    return landed;
  }, FOLDER);
}

/** A page of the server's origin that loads nothing of the app: the origin's private files. */
async function barePage(browser: BenchBrowser, origin: string) {
  await browser.page.goto(`${origin}/healthcheck`);
}

/** The bare page: the tar in 4 ranges at once, streamed into one file of the folder. */
function fourRanges(url: string, size: number) {
  return (page: Page) =>
    page.evaluate(
      async ({ url, size, ranges, folderName }) => {
        const { navigator } = globalThis as unknown as PageGlobals;
        const root = await navigator.storage.getDirectory();
        const folder = await root.getDirectoryHandle(folderName, { create: true });
        const started = performance.now();
        const handle = await folder.getFileHandle('package.tar', { create: true });
        const writable = await handle.createWritable();
        const part = Math.ceil(size / ranges);
        await Promise.all(
          Array.from({ length: ranges }, async (_, i) => {
            const start = i * part;
            const end = Math.min(size, start + part) - 1;
            const response = await fetch(url, { headers: { Range: `bytes=${start}-${end}` } });
            if (response.status !== 206) throw new Error(`range ${i}: ${response.status}`);
            const reader = response.body!.getReader();
            let at = start;
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              await writable.write({ type: 'write', position: at, data: value });
              at += value.byteLength;
            }
            if (at !== end + 1) throw new Error(`range ${i} ended at ${at}, not ${end + 1}`);
          }),
        );
        await writable.close();
        return { seconds: (performance.now() - started) / 1000 };
      },
      { url, size, ranges: RANGES, folderName: FOLDER },
    );
}

/**
 * The bare page: `count` files of `fileBytes` random bytes held in memory, written into the
 * folder at the package's paths, 10 at once.
 */
function fromMemory(count: number, fileBytes: number) {
  return (page: Page) =>
    page.evaluate(
      async ({ count, fileBytes, atOnce, folderName }) => {
        const bytes = new Uint8Array(fileBytes);
        for (let at = 0; at < fileBytes; at += 65_536)
          crypto.getRandomValues(bytes.subarray(at, Math.min(fileBytes, at + 65_536)));
        const { navigator } = globalThis as unknown as PageGlobals;
        const root = await navigator.storage.getDirectory();
        const started = performance.now();
        const top = await root.getDirectoryHandle(folderName, { create: true });
        // The seed's layout: 100 files a folder, each made once (no named functions in here:
        // tsx names them through a helper the page does not have).
        const folders = new Map<number, Promise<PageFolder>>();
        for (let n = 0; n * 100 < count; n++)
          folders.set(n, top.getDirectoryHandle(`f${n}`, { create: true }));
        let next = 0;
        await Promise.all(
          Array.from({ length: atOnce }, async () => {
            while (next < count) {
              const i = next++;
              const folder = await folders.get(Math.floor(i / 100))!;
              const handle = await folder.getFileHandle(`${i}.dpx`, { create: true });
              const writable = await handle.createWritable();
              await writable.write(bytes);
              await writable.close();
            }
          }),
        );
        return { seconds: (performance.now() - started) / 1000 };
      },
      { count, fileBytes, atOnce: FILES_AT_ONCE, folderName: FOLDER },
    );
}

/** Signs in through the login page as the recipient and opens the package in the Inbox. */
async function openPackage(setup: BrowserSetup, browser: BenchBrowser, pkg: SeededPackage) {
  const { page, context } = browser;
  // tsx (esbuild's keepNames) names the functions below through a helper of its own, which the
  // page needs too.
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  // Headless Chromium cannot answer the native folder picker: it answers the private folder, as
  // in the e2e suites (e2e/picked-folder.ts).
  await context.addInitScript((folderName: string) => {
    const page = globalThis as unknown as PageGlobals;
    Object.assign(page, {
      showDirectoryPicker: async () =>
        (await page.navigator.storage.getDirectory()).getDirectoryHandle(folderName, {
          create: true,
        }),
    });
  }, FOLDER);
  await page.goto(`${setup.origin}/login`);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(setup.recipient.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(setup.recipient.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login' && url.pathname !== '/');
  await page.goto(`${setup.origin}/inbox/${pkg.slug}`);
  const detail = page.getByRole('region', { name: 'Package details' });
  await detail.getByRole('heading', { name: pkg.name }).waitFor();
}

/**
 * The engine as a person starts it: Download All, Unpack into a folder (the picker answers the
 * private folder), the queue opened; timed in the page from the click on Unpack to the moment
 * the queue shows the download Completed (every file written, closed and its hash checked).
 */
async function unpackInApp(page: Page) {
  await page.evaluate(() => {
    const page = globalThis as unknown as PageGlobals;
    const timing: DownloadTiming = { started: 0, ended: 0, status: '' };
    page.downloadBench = timing;
    page.document.addEventListener(
      'click',
      (event) => {
        const item = event.target?.closest('[role="menuitem"]');
        if (item?.textContent?.includes('Unpack into a folder')) timing.started = performance.now();
      },
      { capture: true },
    );
    new page.MutationObserver(() => {
      if (timing.ended) return;
      for (const status of page.document.querySelectorAll('[data-testid="upload-status"]')) {
        const text = status.textContent ?? '';
        if (text === 'Completed' || text === 'Failed') {
          timing.ended = performance.now();
          timing.status = text;
        }
      }
    }).observe(page.document.body, { subtree: true, childList: true, characterData: true });
  });
  const profile = process.env.BENCH_CPU_PROFILE ? await startProfile(page) : null;
  const detail = page.getByRole('region', { name: 'Package details' });
  await detail.getByRole('button', { name: 'Download All' }).click();
  await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
  await page.getByRole('button', { name: /^(Download|Transfer) queue:/ }).click();
  // Polled from here every 100 ms: the page itself notes the moment.
  const handle = await page.waitForFunction(
    () => {
      const { downloadBench: timing } = globalThis as unknown as PageGlobals;
      return timing?.ended ? timing : null;
    },
    undefined,
    { polling: 100, timeout: 0 },
  );
  const bench = (await handle.jsonValue())!;
  if (profile) await profile.stop(process.env.BENCH_CPU_PROFILE!);
  if (bench.status !== 'Completed') {
    const shown = await page.getByRole('region', { name: /queue/ }).innerText();
    throw new Error(`the download ended ${bench.status}: ${shown}`);
  }
  return { seconds: (bench.ended - bench.started) / 1000 };
}

/**
 * With BENCH_CPU_PROFILE=<prefix>, V8's sampling profile of the page and of each of its workers
 * (the hash worker) over the engine's run, written as <prefix>-page.cpuprofile and
 * <prefix>-worker-N.cpuprofile for DevTools or a script to rank.
 */
async function startProfile(page: Page) {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  return {
    async stop(prefix: string) {
      const { profile } = await session.send('Profiler.stop');
      await writeFile(`${prefix}-page.cpuprofile`, JSON.stringify(profile));
    },
  };
}

/** CPU of the page (all of Chromium), the server and its database per `per` of work. */
function cpuPer(figure: Figure, per: string, amount: number) {
  const cpu = (key: string) => hundredths((figure[key] as number) / amount);
  return {
    [`browser_cpu_s_per_${per}`]: cpu('client_cpu_s'),
    [`server_cpu_s_per_${per}`]: cpu('server_cpu_s'),
    [`database_cpu_s_per_${per}`]: cpu('database_cpu_s'),
  };
}

/** Figures (a) to (c): each package by the engine and by its bare page, `runs` rounds. */
export async function browserFigures(setup: BrowserSetup) {
  const { large, many, origin, log } = setup;
  const app = (pkg: SeededPackage) => (browser: BenchBrowser) => openPackage(setup, browser, pkg);
  const bare = (browser: BenchBrowser) => barePage(browser, origin);
  const measured = (pkg: SeededPackage, unit: Unit, amount: number, baseline: Baseline) =>
    rounds(
      setup.runs,
      unit,
      [
        [
          baseline.name,
          () => inFreshBrowser(setup, unit, amount, baseline.lands, bare, baseline.transfer),
        ],
        ['engine', () => inFreshBrowser(setup, unit, amount, pkg, app(pkg), unpackInApp)],
      ],
      (message) => log(`browser, ${pkg.name}: ${message}`),
    );

  const largeCases = await measured(large, 'mb_per_s', large.size / 1e6, {
    name: 'bare_page_4_ranges',
    // The bare page keeps the tar itself: one file of the tar's size.
    lands: { files: 1, bytes: large.size },
    transfer: fourRanges(origin + large.tar, large.size),
  });
  const manyCases = await measured(many, 'files_per_s', many.files, {
    name: 'bare_page_from_memory',
    lands: many,
    transfer: fromMemory(many.files, many.bytes / many.files),
  });

  const gib = large.size / GiB;
  const thousands = many.files / 1000;
  const manyGib = many.size / GiB;
  const withCpu = (figure: Figure, per: [string, number][]) =>
    Object.assign({}, figure, ...per.map(([name, amount]) => cpuPer(figure, name, amount)));
  return {
    large_file: {
      tar_mib: hundredths(large.size / 1024 ** 2),
      bare_page_4_ranges: withCpu(largeCases.bare_page_4_ranges!, [['gib', gib]]),
      engine: against(
        withCpu(largeCases.engine!, [['gib', gib]]),
        largeCases.bare_page_4_ranges!,
        'mb_per_s',
        0.9,
      ),
    },
    many_files: {
      tar_mib: hundredths(many.size / 1024 ** 2),
      files: many.files,
      bare_page_from_memory: withCpu(manyCases.bare_page_from_memory!, [
        ['1000_files', thousands],
        ['gib', manyGib],
      ]),
      engine: against(
        withCpu(manyCases.engine!, [
          ['1000_files', thousands],
          ['gib', manyGib],
        ]),
        manyCases.bare_page_from_memory!,
        'files_per_s',
        0.8,
      ),
    },
  };
}
