/**
 * Storage throughput on loopback with curl: a 1 GiB PUT and GET against nginx (DAV PUT to a
 * file, sendfile GET), the embedded store and Swift, side by side in rotating order, with
 * ratios to nginx per round and the servers' peak memory; then a 2 GiB PUT and GET through
 * a fresh embedded store, to show its memory does not grow with the object.
 *
 *   node --import tsx bench/storage/run.ts [--runs 3] [--size-mib 1024] [--big-mib 2048]
 *                                          [--skip swift,nginx]
 *
 * Prints one JSON document on stdout; progress goes to stderr. Swift comes from
 * SWIFT_AUTH_URL/SWIFT_USER/SWIFT_KEY, else is started with scripts/swift-saio.sh.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hundredths, summary } from '../figures';
import { option } from '../options';
import { cpuSeconds, currentRss, peakRss, run } from './processes';
import { startEmbedded, startNginx, startSwift, type BenchTarget } from './targets';

const MiB = 1024 * 1024;

const runs = Number(option('runs', '3'));
const sizeBytes = Number(option('size-mib', '1024')) * MiB;
const bigBytes = Number(option('big-mib', '2048')) * MiB;
const skip = new Set(option('skip', '').split(',').filter(Boolean));
const log = (message: string) => process.stderr.write(`bench/storage: ${message}\n`);

/** A source file in RAM (tmpfs) so the client side never waits on the disk. */
async function makeSource(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, `source-${bytes}`);
  const block = randomBytes(16 * MiB);
  const out = createWriteStream(file);
  for (let written = 0, index = 0; written < bytes; index++) {
    const chunk = Buffer.from(block.subarray(0, Math.min(block.length, bytes - written)));
    chunk.writeUInt32BE(index, 0);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    written += chunk.length;
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return file;
}

interface Transfer {
  readonly mbPerSecond: number;
  readonly seconds: number;
  readonly serverCpuSeconds: number | null;
}

async function curl(
  target: BenchTarget,
  method: 'PUT' | 'GET',
  key: string,
  source: string,
  bytes: number,
) {
  const pids = await target.pids();
  const cpuBefore = pids ? await cpuSeconds(pids) : 0;
  const args =
    method === 'PUT'
      ? [
          '-sS',
          '-o',
          '/dev/null',
          '-H',
          'Expect:',
          '-T',
          source,
          '-w',
          '%{http_code} %{time_total}',
          target.putUrl(key),
        ]
      : ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', target.getUrl(key)];
  const { stdout } = await run('curl', args);
  const [status, seconds] = stdout.trim().split(' ');
  const expected = method === 'GET' ? '200' : target.name === 'nginx' ? '201|204' : '201';
  if (!new RegExp(`^(${expected})$`).test(status ?? '')) {
    throw new Error(`${target.name} ${method} answered ${status}`);
  }
  const cpu = pids ? (await cpuSeconds(pids)) - cpuBefore : null;
  return {
    mbPerSecond: bytes / Number(seconds) / 1e6,
    seconds: Number(seconds),
    serverCpuSeconds: cpu,
  } satisfies Transfer;
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'bench-storage-'));
  const ramDir = existsSync('/dev/shm') ? await mkdtemp('/dev/shm/bench-storage-') : workDir;
  const targets: BenchTarget[] = [];
  try {
    log(`sources: ${sizeBytes / MiB} MiB and ${bigBytes / MiB} MiB in ${ramDir}`);
    const source = await makeSource(ramDir, sizeBytes);
    if (!skip.has('nginx')) targets.push(await startNginx(workDir));
    targets.push(await startEmbedded(workDir));
    if (!skip.has('swift')) targets.push(await startSwift(workDir));

    const results = new Map<string, { put: Transfer[]; get: Transfer[] }>();
    for (const target of targets) results.set(target.name, { put: [], get: [] });
    for (let round = 0; round < runs; round++) {
      // Rotate the order so no server always runs on a warmer or colder machine.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const target of order) {
        const key = `round-${round}`;
        const put = await curl(target, 'PUT', key, source, sizeBytes);
        const get = await curl(target, 'GET', key, source, sizeBytes);
        results.get(target.name)!.put.push(put);
        results.get(target.name)!.get.push(get);
        log(
          `round ${round + 1}/${runs} ${target.name}: PUT ${put.mbPerSecond.toFixed(0)} MB/s, GET ${get.mbPerSecond.toFixed(0)} MB/s`,
        );
      }
    }

    const report: Record<string, unknown> = {};
    const nginx = results.get('nginx');
    for (const target of targets) {
      const measured = results.get(target.name)!;
      const pids = await target.pids();
      const ratio = (kind: 'put' | 'get') =>
        nginx
          ? summary(measured[kind].map((t, i) => t.mbPerSecond / nginx[kind][i]!.mbPerSecond))
          : null;
      report[target.name] = {
        put_mb_per_s: summary(measured.put.map((t) => t.mbPerSecond)),
        get_mb_per_s: summary(measured.get.map((t) => t.mbPerSecond)),
        ratio_to_nginx: target.name === 'nginx' ? null : { put: ratio('put'), get: ratio('get') },
        server_cpu_seconds: {
          put: pids ? summary(measured.put.map((t) => t.serverCpuSeconds ?? NaN)) : null,
          get: pids ? summary(measured.get.map((t) => t.serverCpuSeconds ?? NaN)) : null,
        },
        server_peak_rss_mib: pids ? Math.round((await peakRss(pids)) / MiB) : null,
      };
    }
    for (const target of targets.splice(0)) await target.stop();
    await rm(source);

    log(`${bigBytes / MiB} MiB through a fresh embedded store`);
    const bigSource = await makeSource(ramDir, bigBytes);
    const fresh = await startEmbedded(workDir);
    targets.push(fresh);
    const freshPids = (await fresh.pids())!;
    const rssBefore = await currentRss(freshPids);
    const bigPut = await curl(fresh, 'PUT', 'big', bigSource, bigBytes);
    const bigGet = await curl(fresh, 'GET', 'big', bigSource, bigBytes);
    report[`embedded_${bigBytes / MiB}_mib`] = {
      put_mb_per_s: Math.round(bigPut.mbPerSecond),
      get_mb_per_s: Math.round(bigGet.mbPerSecond),
      server_cpu_seconds: {
        put: bigPut.serverCpuSeconds === null ? null : hundredths(bigPut.serverCpuSeconds),
        get: bigGet.serverCpuSeconds === null ? null : hundredths(bigGet.serverCpuSeconds),
      },
      server_rss_before_mib: Math.round(rssBefore / MiB),
      server_peak_rss_mib: Math.round((await peakRss(freshPids)) / MiB),
    };

    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      method: `curl on 127.0.0.1, source in ${ramDir}; ${runs} rounds in rotating order; ratios are per round`,
      object_mib: sizeBytes / MiB,
      ...report,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    for (const target of targets) await target.stop().catch(() => undefined);
    await rm(workDir, { recursive: true, force: true });
    if (ramDir !== workDir) await rm(ramDir, { recursive: true, force: true });
  }
}

await main();
