import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { repoRoot } from '../harness';
import type { Lab } from './lab';

export const MiB = 1024 * 1024;

/**
 * Builds the lab page (this folder) with the web app's Vite into a fresh directory, as a
 * private WEB_DIST: the bundle loads the browser entry and its hashing worker exactly as the web
 * app's build does.
 */
export async function buildLab(): Promise<string> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'filerunner-transfer-lab-'));
  const viteRoot = path.dirname(
    createRequire(path.join(repoRoot, 'apps/web/package.json')).resolve('vite/package.json'),
  );
  const child = spawn(
    process.execPath,
    [path.join(viteRoot, 'bin/vite.js'), 'build', '--outDir', outDir],
    { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building the lab page failed (${code}):\n${output}`);
  return outDir;
}

/** A page of the lab in a browser context of its own (empty IndexedDB and private files). */
export async function openLab(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.lab !== undefined);
  return page;
}

/** Reloads the page: everything in memory is gone, IndexedDB and private files stay. */
export async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForFunction(() => window.lab !== undefined);
}

export type { Lab };

/** V8 heap in use plus ArrayBuffer backing stores (where file bytes would sit), in bytes. */
interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}
const heapBytes = (usage: HeapUsage) => usage.usedSize + (usage.backingStorageSize ?? 0);

/** Measures the page's JS memory; `settle` collects garbage first, for a baseline. */
export async function pageHeapMeter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  return async ({ settle = false } = {}) => {
    if (settle) await cdp.send('HeapProfiler.collectGarbage');
    return heapBytes((await cdp.send('Runtime.getHeapUsage')) as HeapUsage);
  };
}

/**
 * Measures the JS memory of the page's dedicated worker whose URL contains `urlPart`. Playwright
 * opens CDP sessions on pages only, so this attaches to the worker target from the browser
 * session and speaks to it through Target.sendMessageToTarget.
 */
export async function workerHeapMeter(browser: Browser, page: Page, urlPart: string) {
  const pageCdp = await page.context().newCDPSession(page);
  const { targetInfo: pageTarget } = await pageCdp.send('Target.getTargetInfo');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const worker = targetInfos.find(
    (t) =>
      t.type === 'worker' &&
      t.url.includes(urlPart) &&
      t.browserContextId === pageTarget.browserContextId,
  );
  if (!worker) throw new Error(`no worker ${urlPart} is running in the page`);
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: false,
  });
  const send = workerCommands(cdp, sessionId);
  return async () => heapBytes((await send('Runtime.getHeapUsage')) as HeapUsage);
}

function workerCommands(cdp: CDPSession, sessionId: string) {
  let lastId = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
    if (message.id !== undefined) waiting.delete(message.id);
  });
  return (method: string) =>
    new Promise<unknown>((resolve) => {
      const id = ++lastId;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method }),
      });
    });
}

/** The highest of `measure` taken over and over until `work` settles, and what `work` gave. */
export async function peakWhile<T>(
  measure: () => Promise<number>,
  work: Promise<T>,
): Promise<{ peak: number; samples: number; result: T }> {
  let settled = false;
  const outcome = work.finally(() => (settled = true));
  outcome.catch(() => undefined); // awaited below; this only keeps a failure from going unhandled
  let peak = 0;
  let samples = 0;
  while (!settled) {
    peak = Math.max(peak, await measure());
    samples++;
  }
  return { peak, samples, result: await outcome };
}
