/**
 * Upload throughput of the transfer engine beside raw baselines in the same run, against the
 * server in its own process on the embedded defaults (embedded PostgreSQL, embedded store):
 *
 * - In headless Chromium, on a page built with Vite that runs the engine as the web app does
 *   (XHR, IndexedDB ledgers, xxh128 in a worker), the files on disk set on the page's file inputs
 *   as a sender picks them (`--browser-files opfs`: copies in the origin-private file system,
 *   picked as handles, which Chromium reads at a higher cost per file): one large file against a
 *   bare page PUTting the same `File` in 4 slices at once; many small files (FormPost batches,
 *   and slab objects with the contract's use_slab_files on) against one fetch PUT per file, 10 at
 *   once. The page's JS heap is sampled throughout.
 * - Through the engine's Node entry (files on disk), the same two against curl: 4 curl processes
 *   PUTting 4 ranges of the file, and one `curl --parallel` PUT per file, 10 at once; and the
 *   `filerunner` CLI when apps/cli exists.
 *
 * Every figure carries the CPU seconds of the server, its database and the client over the
 * transfer, the server's peak RSS, the disk's writes and busy time, and the limit they point to.
 *
 *   node --import tsx bench/upload/run.ts [--big-mib 2048] [--small-files 10000] [--small-kib 10]
 *                                         [--runs 1] [--only browser,node] [--profile DIR]
 *                                         [--browser-files disk|opfs]
 *
 * `--profile DIR` leaves, for each browser transfer, CPU profiles of the page and its workers,
 * a timeline of the engine's requests, hashes and ledger writes, and Chromium's CPU per process
 * in DIR (see profile.ts); the page is then built unminified, so its figures are not the product's.
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { stopEmbeddedPostgres } from '../../apps/server/src/db/embedded-postgres';
import { tempDataParent } from '../../apps/server/test/temp-data-dir';
import { option } from '../options';
import { embeddedServer } from '../embedded-server';
import { run, stopServer } from '../storage/processes';
import { apiSession } from './api-session';
import { buildPage } from './browser';
import { browserCases } from './browser-cases';
import { nodeCases } from './node-cases';
import { writeDiskFiles } from './disk-files';

const MiB = 1024 * 1024;
const PASSWORD = 'bench-Password-1!';

const sizes = {
  bigBytes: Number(option('big-mib', '2048')) * MiB,
  count: Number(option('small-files', '10000')),
  size: Number(option('small-kib', '10')) * 1024,
  perFolder: 100,
};
const runs = Number(option('runs', '1'));
const only = option('only', 'browser,node').split(',');
const profileDir = option('profile', '');
const browserFiles = pageFilesOption(option('browser-files', 'disk'));
const log = (message: string) => process.stderr.write(`bench/upload: ${message}\n`);

function pageFilesOption(value: string): 'disk' | 'opfs' {
  if (value === 'disk' || value === 'opfs') return value;
  throw new Error(`--browser-files is disk or opfs, not ${value}`);
}

async function main(): Promise<void> {
  const workDir = await tempDataParent('bench-upload-');
  const dataDir = path.join(workDir, 'data');
  let server: ChildProcess | undefined;
  const cleanUp = async () => {
    if (server) await stopServer(server);
    await stopEmbeddedPostgres(dataDir).catch(() => undefined);
    await rm(workDir, { recursive: true, force: true });
  };
  // Stopped early (Ctrl-C): the server, its database and the files go too; playwright closes
  // Chromium as this process exits.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }
  try {
    log('building the bench page');
    await buildPage(path.join(workDir, 'page'), { minify: !profileDir });
    const product = await embeddedServer(dataDir, {
      SEED_DEMO: 'true',
      DEMO_PASSWORD: PASSWORD,
      WEB_DIST: path.join(workDir, 'page'),
    });
    const { origin } = product;
    log('writing the files to disk');
    const files = await writeDiskFiles(path.join(workDir, 'files'), sizes);
    log('starting the server (embedded PostgreSQL, embedded store)');
    server = await product.start();
    const setup = {
      origin,
      password: PASSWORD,
      workDir,
      parties: {
        server: server.pid!,
        dataDir,
        // The page's copies in the origin-private file system live in Chromium's profile.
        sources: [
          path.join(workDir, 'files'),
          ...(browserFiles === 'opfs' ? [path.join(workDir, 'chromium')] : []),
        ],
      },
      admin: await apiSession(origin, 'admin@example.com', PASSWORD),
      sender: await apiSession(origin, 'sender@example.com', PASSWORD),
      sizes,
      files,
      browserFiles,
      runs,
      profileDir: profileDir && path.resolve(profileDir),
      log,
    };
    const chromium = await run('/usr/bin/chromium', ['--version']).catch(() => ({ stdout: '' }));
    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version, chromium: chromium.stdout.trim() },
      method:
        'server (embedded PostgreSQL, embedded store) in its own process on 127.0.0.1; the package is created and grants for baselines taken before the clock starts; the engine is timed from its start to COMPLETED (grants, bytes, xxh128 of every file, reports, finalise), baselines over their PUTs only; `sync`, the page cache dropped (when root) and the sources read back before each transfer; CPU seconds and the server peak RSS (VmHWM reset) from /proc over the transfer',
      browser_files: browserFiles,
      sizes: {
        large_file_mib: sizes.bigBytes / MiB,
        small_files: sizes.count,
        small_file_kib: sizes.size / 1024,
      },
      runs,
      ...(only.includes('browser') ? { browser: await browserCases(setup) } : {}),
      ...(only.includes('node') ? { node: await nodeCases(setup) } : {}),
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await cleanUp();
  }
}

await main();
