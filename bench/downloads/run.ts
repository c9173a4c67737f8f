/**
 * Download throughput of the server on loopback with curl, beside raw baselines in the same run:
 * a package of a few large files and one of many small files, each fetched as the tar whole and
 * as 10 ranged requests at once (as the browser engine does), against GNU tar packing the same
 * files from disk; and one large file through its download URL against a signed GET of its
 * object. The server runs as its own process (embedded PostgreSQL, embedded store); its CPU and peak memory
 * are read from /proc per transfer.
 *
 *   node --import tsx bench/downloads/run.ts [--runs 3] [--big-files 8] [--big-mib 128]
 *                                            [--small-files 10000] [--small-kib 10]
 *                                            [--data-dir DIR] [--only big,many,file]
 *                                            [--cpu-prof DIR]
 *
 * `--data-dir` keeps the seeded data there and reuses it on the next run (so two versions of the
 * server are measured on the same objects); `--only` measures some cases; `--cpu-prof` writes the server's
 * CPU profile (node --cpu-prof, one .cpuprofile when it stops) into that directory. With
 * STORAGE_DRIVER=swift and SWIFT_AUTH_URL, SWIFT_USER, SWIFT_KEY (scripts/swift-saio.sh prints
 * them) the objects live on that Swift, and each tar is set beside a `swift download` of the same
 * objects (10 at a time, its default) into a memory file system.
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serverNodeArgs } from '../../apps/server/src/node-flags';
import { tempDataParent } from '../../apps/server/test/temp-data-dir';
import {
  swiftEnvironment,
  swiftServerSettings,
} from '../../apps/server/src/storage/swift/swift-test-environment';
import { hundredths, summary } from '../figures';
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
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PARALLEL = 10;

const runs = Number(option('runs', '3'));
const bigFiles = option('big-files', '8');
const bigMib = option('big-mib', '128');
const smallFiles = option('small-files', '10000');
const smallKib = option('small-kib', '10');
const keptDataDir = option('data-dir', '');
const only = new Set(option('only', 'big,many,file').split(','));
const cpuProfDir = option('cpu-prof', '');
const swift = process.env.STORAGE_DRIVER === 'swift' ? swiftEnvironment() : null;
if (process.env.STORAGE_DRIVER === 'swift' && !swift) {
  throw new Error('STORAGE_DRIVER=swift needs SWIFT_AUTH_URL, SWIFT_USER and SWIFT_KEY');
}
const log = (message: string) => process.stderr.write(`bench/downloads: ${message}\n`);

/** The server and the bench share nothing but the data directory: no DATABASE_URL (embedded). */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...(swift ? swiftServerSettings(swift) : {}), ...extra };
  delete env.DATABASE_URL;
  return env;
}

interface SeededPackage {
  tar: string;
  files: number;
  source: string;
  /** Where its objects are (each file its own object under the prefix). */
  container: string;
  prefix: string;
}

interface Seeded {
  big: SeededPackage;
  many: SeededPackage;
  file: { url: string; object: string; bytes: number };
}

interface Measured {
  seconds: number;
  serverCpuSeconds: number | null;
  serverPeakRssBytes: number | null;
}

/** Runs `transfer`, reading the server's CPU and peak memory over exactly that transfer. */
async function measure(pid: number | null, transfer: () => Promise<void>): Promise<Measured> {
  // Writing 5 to clear_refs resets VmHWM, so the peak read afterwards is this transfer's own.
  if (pid) await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
  const cpuBefore = pid ? await cpuSeconds([pid]) : 0;
  const started = performance.now();
  await transfer();
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    serverCpuSeconds: pid ? (await cpuSeconds([pid])) - cpuBefore : null,
    serverPeakRssBytes: pid ? await peakRss([pid]) : null,
  };
}

/** GETs a URL (optionally one range) into /dev/null; answers the bytes received. */
async function curl(url: string, range?: { start: number; end: number }): Promise<number> {
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}'];
  if (range) args.push('-r', `${range.start}-${range.end}`);
  const { stdout } = await run('curl', [...args, url]);
  const [status, bytes] = stdout.trim().split(' ');
  if (status !== (range ? '206' : '200')) throw new Error(`GET ${url} answered ${status}`);
  return Number(bytes);
}

async function contentLength(url: string): Promise<number> {
  const response = await fetch(url, { method: 'HEAD' });
  if (!response.ok) throw new Error(`HEAD ${url} answered ${response.status}`);
  return Number(response.headers.get('content-length'));
}

/** The tar in PARALLEL ranged requests at once, as the browser engine fetches it. */
async function ranged(url: string, size: number): Promise<void> {
  const chunk = Math.ceil(size / PARALLEL);
  const parts = Array.from({ length: PARALLEL }, (_, i) => ({
    start: i * chunk,
    end: Math.min(size, (i + 1) * chunk) - 1,
  })).filter((r) => r.start <= r.end);
  const received = await Promise.all(parts.map((r) => curl(url, r)));
  const total = received.reduce((a, b) => a + b, 0);
  if (total !== size) throw new Error(`ranged GET received ${total} of ${size} bytes`);
}

/** GNU tar packing the same files, piped (so it must read them) into a discarding cat. */
async function gnuTar(source: string): Promise<void> {
  await promisify(execFile)('sh', ['-c', `tar -cf - -C '${source}' . | cat > /dev/null`]);
}

/**
 * The same objects fetched by OpenStack's own client, 10 at a time (its default), into a memory
 * file system (the nearest it has to /dev/null for many objects).
 */
async function swiftDownload(pkg: SeededPackage): Promise<void> {
  const target = await mkdtemp('/dev/shm/bench-swift-download-');
  try {
    await run('swift', [
      '-A',
      swift!.authUrl,
      '-U',
      swift!.user,
      '-K',
      swift!.key,
      'download',
      pkg.container,
      '--prefix',
      pkg.prefix,
      '-D',
      target,
      '--quiet',
    ]);
  } finally {
    await rm(target, { recursive: true, force: true });
  }
}

interface Case {
  name: string;
  /** What each MB/s figure divides by: the tar's (or file's) bytes. */
  bytes: number;
  baseline: { name: string; run: () => Promise<void> };
  served: Record<string, () => Promise<void>>;
}

async function main(): Promise<void> {
  const workDir = keptDataDir || (await tempDataParent('bench-downloads-'));
  const dataDir = path.join(workDir, 'data');
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const seeded = await seededOnce<Seeded>({
      workDir,
      reuse: Boolean(keptDataDir),
      script: 'bench/downloads/seed.ts',
      args: [dataDir, path.join(workDir, 'source'), bigFiles, bigMib, smallFiles, smallKib],
      env: serverEnv({}),
      log,
      what: `${bigFiles} × ${bigMib} MiB and ${smallFiles} × ${smallKib} KiB`,
    });

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startServer(
      process.execPath,
      serverNodeArgs(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(cpuProfDir)] : []),
      async () => (await fetch(`${origin}/healthcheck`)).ok,
      {
        cwd: path.join(REPO, 'apps/server'),
        env: serverEnv({
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: origin,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
        }),
      },
    );
    const pid = server.pid ?? null;
    const rssBefore = pid ? await currentRss([pid]) : 0;

    const cases: Case[] = [];
    for (const pkg of ['big', 'many'] as const) {
      if (!only.has(pkg)) continue;
      const url = origin + seeded[pkg].tar;
      const size = await contentLength(url);
      cases.push({
        name: `tar_${pkg}`,
        bytes: size,
        baseline: swift
          ? { name: 'swift_download', run: () => swiftDownload(seeded[pkg]) }
          : { name: 'gnu_tar', run: () => gnuTar(seeded[pkg].source) },
        served: {
          whole: async () => {
            if ((await curl(url)) !== size) throw new Error(`short tar ${pkg}`);
          },
          [`ranged_${PARALLEL}`]: () => ranged(url, size),
        },
      });
    }
    // (On Swift the object's signed GET goes to Swift, not through this server: no such case.)
    if (only.has('file') && !swift)
      cases.push({
        name: 'one_file',
        bytes: seeded.file.bytes,
        baseline: {
          name: 'object_get',
          run: async () => void (await curl(origin + seeded.file.object)),
        },
        served: { whole: async () => void (await curl(origin + seeded.file.url)) },
      });

    const report: Record<string, unknown> = {};
    for (const c of cases) {
      const baseline: Measured[] = [];
      const served = new Map<string, Measured[]>(Object.keys(c.served).map((k) => [k, []]));
      // One unmeasured pass of each, so no round pays for the first read from disk.
      await c.baseline.run();
      for (const transfer of Object.values(c.served)) await transfer();
      for (let round = 0; round < runs; round++) {
        // Alternate which goes first, so neither always runs on a warmer machine.
        const steps: Array<() => Promise<void>> = [
          async () => void baseline.push(await measure(null, c.baseline.run)),
          ...Object.entries(c.served).map(
            ([way, transfer]) =>
              async () =>
                void served.get(way)!.push(await measure(pid, transfer)),
          ),
        ];
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
      }
      const mbPerSecond = (m: Measured) => c.bytes / m.seconds / 1e6;
      const entry: Record<string, unknown> = {
        mib: hundredths(c.bytes / MiB),
        [c.baseline.name]: { mb_per_s: summary(baseline.map(mbPerSecond)) },
      };
      for (const [way, measured] of served) {
        entry[way] = {
          mb_per_s: summary(measured.map(mbPerSecond)),
          ratio_to_baseline: summary(measured.map((m, i) => baseline[i]!.seconds / m.seconds)),
          server_cpu_seconds: summary(measured.map((m) => m.serverCpuSeconds ?? NaN)),
          // Less sensitive to what else the machine runs than MB/s.
          server_cpu_seconds_per_100_mib: summary(
            measured.map((m) => ((m.serverCpuSeconds ?? NaN) * 100 * MiB) / c.bytes),
          ),
          server_peak_rss_mib: summary(measured.map((m) => (m.serverPeakRssBytes ?? NaN) / MiB)),
        };
        log(`${c.name} ${way}: ${summary(measured.map(mbPerSecond)).median} MB/s`);
      }
      report[c.name] = entry;
    }

    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      method: `curl on 127.0.0.1 against the server (embedded PostgreSQL, ${swift ? 'Swift' : 'embedded store'}) in its own process; ${runs} rounds; MB/s over the tar's bytes; ${swift ? "the baseline is swift download of the package's objects into /dev/shm" : 'the baseline reads the same files from the same disk, warm'}`,
      packages: {
        big: `${bigFiles} files × ${bigMib} MiB`,
        many: `${smallFiles} files × ${smallKib} KiB, each its own object`,
      },
      server_rss_before_mib: Math.round(rssBefore / MiB),
      ...report,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    if (server) await stopServer(server);
    if (!keptDataDir) await rm(workDir, { recursive: true, force: true });
  }
}

await main();
