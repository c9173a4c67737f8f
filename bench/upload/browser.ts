import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium';
import type { UploadBenchPage } from './page/api';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MiB = 1024 * 1024;

/**
 * Builds the bench page (./page) with the web app's Vite into `outDir`, to serve as WEB_DIST;
 * unminified when profiled, so that profiles name the engine's functions.
 */
export async function buildPage(outDir: string, { minify = true } = {}): Promise<void> {
  const viteRoot = path.dirname(
    createRequire(path.join(REPO, 'apps/web/package.json')).resolve('vite/package.json'),
  );
  const child = spawn(
    process.execPath,
    [
      path.join(viteRoot, 'bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      ...(minify ? [] : ['--minify', 'false']),
    ],
    { cwd: fileURLToPath(new URL('./page/', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building the bench page failed (${code}):\n${output}`);
}

/** Chromium's browser process among this process's children (playwright spawns it directly). */
async function chromiumPid(): Promise<number> {
  for (const task of await readdir('/proc/self/task')) {
    const children = await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => '');
    for (const pid of children.split(' ').filter(Boolean)) {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (command.includes('chromium')) return Number(pid);
    }
  }
  throw new Error('no Chromium process found');
}

export interface BenchBrowser {
  context: BrowserContext;
  page: Page;
  /** Chromium's browser process; its tree holds the renderer, GPU and network processes. */
  pid: number;
  /** The page's JS heap (V8 heap plus ArrayBuffer backing stores) now, in bytes. */
  heap(options?: { settle?: boolean }): Promise<number>;
}

/**
 * Debian's Chromium, headless, with a user-data folder on disk (not an incognito context): the
 * origin-private file system is then real files on disk with a disk-sized quota, as a person's
 * folders are. The flags are the e2e harness's. Its one page is blank; the page's complaints (a
 * failed request, an exception) go to the bench's log.
 */
export async function launchBenchBrowser(userDataDir: string): Promise<BenchBrowser> {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()))
      process.stderr.write(`page: ${message.text()}\n`);
  });
  page.on('pageerror', (error) => process.stderr.write(`page: ${error.message}\n`));
  const cdp = await context.newCDPSession(page);
  const heap = async ({ settle = false } = {}) => {
    if (settle) await cdp.send('HeapProfiler.collectGarbage');
    const usage = (await cdp.send('Runtime.getHeapUsage')) as {
      usedSize: number;
      backingStorageSize?: number;
    };
    return usage.usedSize + (usage.backingStorageSize ?? 0);
  };
  return { context, page, pid: await chromiumPid(), heap };
}

/** The bench browser on the upload bench's page (./page), once its functions are there. */
export async function openBenchPage(userDataDir: string, origin: string): Promise<BenchBrowser> {
  const browser = await launchBenchBrowser(userDataDir);
  await browser.page.goto(origin);
  await browser.page.waitForFunction(() => (globalThis as { bench?: unknown }).bench !== undefined);
  return browser;
}

/** Calls one of the bench page's functions (see page/page.ts) with JSON arguments. */
export function callPage<K extends keyof UploadBenchPage>(
  page: Page,
  name: K,
  ...args: Parameters<UploadBenchPage[K]>
): Promise<Awaited<ReturnType<UploadBenchPage[K]>>> {
  return page.evaluate(
    ({ name, args }) => {
      const { bench } = globalThis as unknown as { bench: UploadBenchPage };
      const fn = bench[name] as (...a: unknown[]) => unknown;
      return fn(...args);
    },
    { name, args },
  ) as Promise<Awaited<ReturnType<UploadBenchPage[K]>>>;
}

/**
 * Samples the page's heap every `everyMs` while `work` runs (sampling goes through the DevTools
 * protocol, so it is kept sparse: it costs the renderer a little each time). Answers the heap
 * after a garbage collection before the work, and the highest sample.
 */
export async function heapWhile<T>(
  browser: BenchBrowser,
  work: () => Promise<T>,
  everyMs = 100,
): Promise<{ result: T; page_heap_before_mib: number; page_heap_peak_mib: number }> {
  const before = await browser.heap({ settle: true });
  let peak = before;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await browser.heap());
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    return {
      result,
      page_heap_before_mib: Math.round(before / MiB),
      page_heap_peak_mib: Math.round(peak / MiB),
    };
  } finally {
    running = false;
    await sampling;
  }
}
