/**
 * The download engine against bare baselines, in the same run. Figures (a) to (c), `browser`:
 * the web app in headless Chromium unpacking into a private folder beside a bare page (see
 * browser.ts). Figure (d), `cli`: `filerunner receive` (the engine's Node entry: parallel
 * ranges, unpacked into a folder, every file's xxh128 checked) against curl fetching the same
 * tar in 4 ranged requests at once into the same disk, in the same run. Two packages: one large
 * file, and many small files. The server runs as its own process (embedded PostgreSQL, embedded
 * store). CPU-seconds of the tool (the CLI's process, or the four curls) and of the server are
 * read per transfer, from bash's `times` and /proc, and given per GiB and per 1,000 files.
 *
 *   node --import tsx bench/download/run.ts [--runs 1] [--large-mib 2048]
 *                                          [--small-files 10000] [--small-kib 10]
 *                                          [--only cli,browser] [--web-dist DIR] [--data-dir DIR]
 *
 * The browser part builds apps/web into a temporary folder for the server to serve, unless
 * `--web-dist` names a build to use. `--data-dir` keeps the seeded data there and reuses it on
 * the next run (so two versions of the code are measured on the same packages); without it, a
 * temporary folder is seeded and removed.
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeArgs } from '../../apps/server/src/node-flags';
import { tempDataParent } from '../../apps/server/test/temp-data-dir';
import { hundredths, summary } from '../figures';
import { buildWeb } from '../web-build';
import { browserFigures, type SeededPackage } from './browser';
import { option } from '../options';
import { seededOnce } from '../seeded-data';
import {
  cpuSeconds,
  currentRss,
  freePort,
  peakRss,
  run,
  startServer,
  stopServer,
} from '../storage/processes';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO, 'apps/cli/bin/filerunner.js');
const RANGES = 4;

const runs = Number(option('runs', '1'));
const largeMib = option('large-mib', '2048');
const smallFiles = option('small-files', '10000');
const smallKib = option('small-kib', '10');
const only = option('only', 'cli,browser').split(',');
const webDist = option('web-dist', '');
const keptDataDir = option('data-dir', '');
const log = (message: string) => process.stderr.write(`bench/download: ${message}\n`);

interface Seeded {
  apiKey: string;
  recipient: { email: string; password: string };
  large: SeededPackage;
  many: SeededPackage;
}

interface Measured {
  seconds: number;
  toolCpuSeconds: number;
  serverCpuSeconds: number;
  serverPeakRssBytes: number;
}

/** The server and the bench share nothing but the data directory: no DATABASE_URL (embedded). */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  return env;
}

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Runs a shell script and answers its children's CPU-seconds (user + system), from bash's
 * `times`, whose second line is the children's.
 */
async function childCpu(script: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { stdout } = await run('bash', ['-c', `${script}\ntimes`], {
    env,
    maxBuffer: 64 * MiB,
  });
  const lines = stdout.trim().split('\n');
  const children = lines.at(-1)!.match(/(\d+)m([\d.]+)s/g)!;
  return children.reduce((sum, t) => {
    const [, m, s] = /(\d+)m([\d.]+)s/.exec(t)!;
    return sum + Number(m) * 60 + Number(s);
  }, 0);
}

/** Runs one transfer, reading its tool's and the server's CPU and the server's peak memory. */
async function measure(pid: number, transfer: () => Promise<number>): Promise<Measured> {
  // Writing 5 to clear_refs resets VmHWM, so the peak read afterwards is this transfer's own.
  await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
  const cpuBefore = await cpuSeconds([pid]);
  const started = performance.now();
  const toolCpuSeconds = await transfer();
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    toolCpuSeconds,
    serverCpuSeconds: (await cpuSeconds([pid])) - cpuBefore,
    serverPeakRssBytes: await peakRss([pid]),
  };
}

async function main(): Promise<void> {
  const workDir = keptDataDir || (await tempDataParent('bench-download-'));
  const dataDir = path.join(workDir, 'data');
  const outDir = path.join(workDir, 'out');
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const seeded = await seededOnce<Seeded>({
      workDir,
      reuse: Boolean(keptDataDir),
      script: 'bench/download/seed.ts',
      args: [dataDir, largeMib, smallFiles, smallKib],
      env: serverEnv({}),
      log,
      what: `one ${largeMib} MiB file, and ${smallFiles} × ${smallKib} KiB`,
    });

    const dist = webDist || path.join(workDir, 'web');
    if (only.includes('browser') && !webDist) {
      log(`building the web app into ${dist}`);
      await buildWeb(dist);
    }
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startServer(
      process.execPath,
      serverNodeArgs(),
      // startServer asks 200 times; each ask waits up to 1 s here, as the embedded PostgreSQL
      // starts slowly on a busy machine.
      async () => {
        for (let i = 0; i < 10; i++) {
          if (
            await fetch(`${origin}/healthcheck`).then(
              (r) => r.ok,
              () => false,
            )
          )
            return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      },
      {
        cwd: path.join(REPO, 'apps/server'),
        env: serverEnv({
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: origin,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          ...(only.includes('browser') ? { WEB_DIST: dist } : {}),
        }),
      },
    );
    const pid = server.pid!;
    const rssBefore = await currentRss([pid]);

    /** curl: the tar in 4 ranged requests at once, each into its part file in a fresh folder. */
    const curlRanges = (pkg: Seeded['large']) => async () => {
      const folder = path.join(outDir, 'curl');
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      const chunk = Math.ceil(pkg.size / RANGES);
      const calls = Array.from({ length: RANGES }, (_, i) => {
        const start = i * chunk;
        const end = Math.min(pkg.size, start + chunk) - 1;
        return `curl -sS --fail -r ${start}-${end} -o ${quoted(path.join(folder, `part${i}`))} ${quoted(origin + pkg.tar)} &`;
      });
      const cpu = await childCpu(`set -e\n${calls.join('\n')}\nwait`);
      const { stdout } = await run('du', ['-sb', folder]);
      const bytes = Number(stdout.split('\t')[0]);
      if (bytes < pkg.size) throw new Error(`curl received ${bytes} of ${pkg.size} bytes`);
      return cpu;
    };
    /** The engine: `filerunner receive --url --api-key <slug>`, unpacked and verified. */
    const receive = (pkg: Seeded['large']) => async () => {
      const folder = path.join(outDir, 'receive');
      await rm(folder, { recursive: true, force: true });
      const state = path.join(workDir, 'state');
      await rm(state, { recursive: true, force: true });
      const env = {
        ...process.env,
        FILERUNNER_URL: origin,
        FILERUNNER_API_KEY: seeded.apiKey,
        XDG_STATE_HOME: state,
      };
      return childCpu(
        `${quoted(process.execPath)} ${quoted(CLI)} receive --quiet --out ${quoted(folder)} ${pkg.slug}`,
        env,
      );
    };

    const report: Record<string, unknown> = {};
    for (const [name, pkg, files] of only.includes('cli')
      ? ([
          ['large_file', seeded.large, 1],
          ['many_files', seeded.many, Number(smallFiles)],
        ] as const)
      : []) {
      const ways = { curl_4_ranges: curlRanges(pkg), filerunner_receive: receive(pkg) };
      const measured = new Map<string, Measured[]>(Object.keys(ways).map((w) => [w, []]));
      // One unmeasured pass of each, so no round pays for the first read from disk.
      for (const transfer of Object.values(ways)) await transfer();
      for (let round = 0; round < runs; round++) {
        const order = Object.entries(ways);
        if (round % 2 === 1) order.reverse();
        for (const [way, transfer] of order) {
          log(`${name}: ${way}, round ${round + 1}`);
          measured.get(way)!.push(await measure(pid, transfer));
        }
      }
      const gib = pkg.size / GiB;
      const entry: Record<string, unknown> = { tar_mib: hundredths(pkg.size / MiB), files };
      const baseline = measured.get('curl_4_ranges')!;
      for (const [way, list] of measured) {
        entry[way] = {
          mb_per_s: summary(list.map((m) => pkg.size / m.seconds / 1e6)),
          ...(way === 'curl_4_ranges'
            ? {}
            : { ratio_to_curl: summary(list.map((m, i) => baseline[i]!.seconds / m.seconds)) }),
          tool_cpu_s_per_gib: summary(list.map((m) => m.toolCpuSeconds / gib)),
          server_cpu_s_per_gib: summary(list.map((m) => m.serverCpuSeconds / gib)),
          ...(files > 1
            ? {
                tool_cpu_s_per_1000_files: summary(
                  list.map((m) => (m.toolCpuSeconds / files) * 1000),
                ),
                server_cpu_s_per_1000_files: summary(
                  list.map((m) => (m.serverCpuSeconds / files) * 1000),
                ),
              }
            : {}),
          server_peak_rss_mib: summary(list.map((m) => m.serverPeakRssBytes / MiB)),
        };
      }
      report[name] = entry;
      log(`${name}: ${JSON.stringify(entry)}`);
    }
    if (only.includes('browser')) {
      report.browser = await browserFigures({
        origin,
        parties: { server: pid, dataDir, sources: [path.join(dataDir, 'objects')] },
        workDir,
        recipient: seeded.recipient,
        large: seeded.large,
        many: seeded.many,
        runs,
        log,
      });
    }
    const output = {
      bench: 'download',
      machine: { cpus: cpus().length, node: process.version, load_average: loadavg() },
      runs,
      server_idle_rss_mib: hundredths(rssBefore / MiB),
      ...report,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    if (server) await stopServer(server);
    // A kept data directory stays for the next run; only what the transfers wrote goes.
    await rm(keptDataDir ? outDir : workDir, { recursive: true, force: true });
    if (keptDataDir) await rm(path.join(workDir, 'state'), { recursive: true, force: true });
  }
}

await main();
