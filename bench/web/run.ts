/**
 * Lighthouse (its default mobile preset: slow 4G, 4× CPU slowdown) on the built web app as the
 * server sends it: /login, the external package page an outsider opens from a mailed link, and
 * the Inbox of a signed-in user. Each page is audited on a first visit (empty cache) and again on
 * a repeat visit (cache kept), and the bytes moved are read from Lighthouse's request list.
 *
 *   node --import tsx bench/web/run.ts [--dist DIR] [--only login,inbox] [--reports DIR] [--loads N]
 *
 * --dist audits that build instead of building apps/web afresh; --reports keeps Lighthouse's reports.
 * --loads N (default 5) also opens each page N times with the CPU slowed 4x and reports the long
 * tasks the page itself observed: steadier than Lighthouse's total blocking time, which it
 * simulates from one load.
 *
 * The server runs as its own process on embedded defaults with the demo data, plus a package
 * sent to a member (for the Inbox) and to an ad-hoc address (for the external link). Chromium is
 * Debian's (/usr/bin/chromium). Prints one JSON document on stdout; progress goes to stderr.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { packageRecipients } from '../../apps/server/src/db/schema';
import { newToken, tokenHash } from '../../apps/server/src/http/secrets';
import {
  addRecipient,
  createPackage,
} from '../../apps/server/src/modules/downloads/download-fixtures';
import {
  contractFixture,
  PASSWORD,
  startTestServer,
  tempDataParent,
} from '../../apps/server/test/harness';
import { embeddedServer } from '../embedded-server';
import { buildWeb } from '../web-build';
import { option } from '../options';
import { signIn } from '../http-load';
import { freePort, stopServer } from '../storage/processes';

/** Some of the pages only (by their names in the output), e.g. while working on one. */
const only = option('only', '').split(',').filter(Boolean);
/** Where Lighthouse's full reports (JSON) are written, one per visit; none by default. */
const reportDir = option('reports', '');
/** How many throttled loads of each page measure its long tasks. */
const loads = Number(option('loads', '5'));
const CHROMIUM = '/usr/bin/chromium';
const log = (message: string) => process.stderr.write(`bench/web: ${message}\n`);

/**
 * The scripts a page of the build loads at once (entry and module preloads), raw and as
 * brotli/gzip; `page` is its HTML file (the server sends login.html for /login), index.html in a
 * build without it, as the server does.
 */
async function firstLoadScripts(dist: string, page: string) {
  const html = await readFile(path.join(dist, page), 'utf8').catch(() =>
    readFile(path.join(dist, 'index.html'), 'utf8'),
  );
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const size = async (file: string) => (await stat(file).catch(() => null))?.size;
  let raw = 0;
  let brotli = 0;
  let gzip = 0;
  for (const file of files) {
    const full = path.join(dist, file);
    const plain = (await size(full)) ?? 0;
    raw += plain;
    brotli += (await size(`${full}.br`)) ?? plain;
    gzip += (await size(`${full}.gz`)) ?? plain;
  }
  return { files: files.length, raw_bytes: raw, brotli_bytes: brotli, gzip_bytes: gzip };
}

/**
 * A package from a member of a fresh contract to another member (its Inbox) and to an ad-hoc
 * address (its mailed link), written into DATA_DIR before the measured server starts.
 */
async function seed(dataDir: string) {
  const server = await startTestServer({ DATA_DIR: dataDir });
  try {
    const fx = await contractFixture(server);
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name: 'Quarterly figures',
      files: 'sample',
    });
    await addRecipient(server, pkg.id, fx.receiver.user);
    const key = newToken();
    await server.ctx.db.insert(packageRecipients).values({
      packageId: pkg.id,
      email: 'partner@external.test',
      keyHash: tokenHash(key),
    });
    return {
      member: fx.receiver.user.email,
      externalPath: `/inbox/external/${pkg.slug}?key=${key}`,
    };
  } finally {
    await server.close();
  }
}

interface Visit {
  scores: Record<string, number | null>;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  requests: number;
  transferred_bytes: number;
  script_bytes: number;
}

/** One Lighthouse run in the browser listening on `port`; `keepCache` makes it a repeat visit. */
/** Lighthouse now and then loses a trace (NO_NAVSTART) when runs share a browser: try again. */
async function auditWithRetry(...args: Parameters<typeof audit>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(...args);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('NO_NAVSTART')) throw error;
      log(`${args[0]}: trace lost, auditing again`);
    }
  }
}

async function audit(name: string, url: string, port: number, keepCache: boolean, cookie?: string) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    disableStorageReset: keepCache,
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse answered nothing for ${url}`);
  const { lhr } = result;
  if (reportDir) {
    await mkdir(reportDir, { recursive: true });
    const file = `${name}-${keepCache ? 'repeat' : 'first'}.json`;
    await writeFile(path.join(reportDir, file), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const requests = (lhr.audits['network-requests']?.details as { items: NetworkItem[] }).items;
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
  const failed = Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => ref.id),
  );
  const visit: Visit & { below_90: string[] } = {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      best_practices: score('best-practices'),
      seo: score('seo'),
    },
    fcp_ms: metric('first-contentful-paint'),
    lcp_ms: metric('largest-contentful-paint'),
    tbt_ms: metric('total-blocking-time'),
    cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
    requests: requests.length,
    transferred_bytes: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    script_bytes: requests
      .filter((r) => r.resourceType === 'Script')
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    below_90: failed,
  };
  return visit;
}

interface NetworkItem {
  url: string;
  transferSize?: number;
  resourceType?: string;
}

/** Collects the page's long tasks in `globalThis.longTasks` (run before the page's scripts). */
const OBSERVE_LONG_TASKS = `
  globalThis.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) globalThis.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * Loads `url` with the CPU slowed 4x (as Lighthouse's mobile preset assumes), `loads` times, each
 * in a fresh context (a first visit), and reads the long tasks (over 50 ms) the page observed
 * until the network has been idle a while. Blocking time is the sum of each task's part over
 * 50 ms, as total blocking time counts it; the median load is reported.
 */
async function longTasks(browser: Browser, url: string, cookie?: string) {
  const perLoad: Array<{ blocking_ms: number; longest_ms: number; tasks: number }> = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext(
      cookie ? { extraHTTPHeaders: { Cookie: cookie } } : {},
    );
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // Observes from the first script on; buffered, so tasks before the observer count too.
      await page.addInitScript({ content: OBSERVE_LONG_TASKS });
      await page.goto(url, { waitUntil: 'networkidle' });
      await page.waitForTimeout(1000);
      const tasks = (await page.evaluate('globalThis.longTasks')) as number[];
      perLoad.push({
        blocking_ms: Math.round(tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
        longest_ms: Math.round(Math.max(0, ...tasks)),
        tasks: tasks.length,
      });
    } finally {
      await context.close();
    }
  }
  const byBlocking = [...perLoad].sort((a, b) => a.blocking_ms - b.blocking_ms);
  return { median: byBlocking[Math.floor(byBlocking.length / 2)], loads: perLoad };
}

async function main(): Promise<void> {
  const workDir = await tempDataParent('bench-web-');
  const dist = option('dist', '') || path.join(workDir, 'dist');
  if (!option('dist', '')) {
    log(`building the web app into ${dist}`);
    await buildWeb(dist);
  }
  const dataDir = path.join(workDir, 'data');
  log('seeding (embedded PostgreSQL)');
  const seeded = await seed(dataDir);

  const product = await embeddedServer(dataDir, {
    WEB_DIST: dist,
    SEED_DEMO: 'true',
    DEMO_PASSWORD: PASSWORD,
  });
  const { origin } = product;
  const server = await product.start();
  const debuggingPort = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [`--remote-debugging-port=${debuggingPort}`],
  });
  try {
    const { cookie } = await signIn(origin, seeded.member);
    const pages: Array<[string, string, string | undefined]> = [
      ['login', '/login', undefined],
      ['external_package', seeded.externalPath, undefined],
      ['inbox', '/inbox', cookie],
    ];
    const figures: Record<
      string,
      {
        first_visit: Visit;
        repeat_visit: Visit;
        long_tasks_cpu_4x?: Awaited<ReturnType<typeof longTasks>>;
      }
    > = {};
    for (const [name, pagePath, pageCookie] of pages) {
      if (only.length && !only.includes(name)) continue;
      log(`auditing ${name}`);
      const url = origin + pagePath;
      const first = await auditWithRetry(name, url, debuggingPort, false, pageCookie);
      const repeat = await auditWithRetry(name, url, debuggingPort, true, pageCookie);
      figures[name] = { first_visit: first, repeat_visit: repeat };
      if (loads > 0) figures[name].long_tasks_cpu_4x = await longTasks(browser, url, pageCookie);
      log(
        `${name}: ${JSON.stringify(first.scores)}, ${first.transferred_bytes} B then ${repeat.transferred_bytes} B`,
      );
    }
    const output = {
      measured_at: new Date().toISOString(),
      // Lighthouse scales the CPU time it observes: on a busy machine performance scores drop.
      machine: { cpus: cpus().length, node: process.version, load_average: loadavg() },
      method:
        'Lighthouse, default mobile preset (simulated slow 4G, 4x CPU), Debian Chromium; first visit with an empty cache, repeat visit with the cache of the first',
      first_load_js: {
        login: await firstLoadScripts(dist, 'login.html'),
        external_package: await firstLoadScripts(dist, 'external.html'),
        app: await firstLoadScripts(dist, 'index.html'),
      },
      ...figures,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await browser.close();
    await stopServer(server);
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
