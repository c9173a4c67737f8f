import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { hundredths } from '../figures';
import { cpuSeconds, peakRss, processTree, run } from '../storage/processes';

const MiB = 1024 * 1024;
export const CORES = cpus().length;

/** The processes whose CPU a transfer is charged with, found again at each reading. */
export interface Parties {
  server: number;
  /** DATA_DIR of the embedded defaults: the database's postmaster writes its pid there. */
  dataDir: string;
  /** The client's process (Chromium's browser process), when it lives throughout. */
  client?: number;
  /** Folders whose files the transfers read: read back into the page cache before each. */
  sources: readonly string[];
}

/** The embedded PostgreSQL's postmaster, from the pid it writes; 0 when it is not running. */
async function postmasterPid(dataDir: string): Promise<number> {
  const pidFile = await readFile(path.join(dataDir, 'db', 'postmaster.pid'), 'utf8').catch(
    () => '',
  );
  return Number(pidFile.split('\n')[0]) || 0;
}

/**
 * CPU seconds of the children a process has waited for (cutime + cstime): this process's curl and
 * Node senders, or the database's backends that ended (the postmaster reaps them; without this a
 * backend ending during a transfer took its CPU out of the database's figure).
 */
async function reapedChildrenCpu(pid: number | 'self'): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) / 100;
}

/** Whole-disk counters of the block devices: sectors written and milliseconds busy. */
async function diskCounters(): Promise<{ writtenBytes: number; busyMs: number }> {
  const stats = await readFile('/proc/diskstats', 'utf8').catch(() => '');
  let writtenBytes = 0;
  let busyMs = 0;
  for (const line of stats.split('\n')) {
    const f = line.trim().split(/\s+/);
    // Whole disks only (vda, sda, nvme0n1), not their partitions or loop devices.
    if (!/^(vd[a-z]|sd[a-z]|xvd[a-z]|nvme\d+n\d+)$/.test(f[2] ?? '')) continue;
    writtenBytes += Number(f[9]) * 512;
    busyMs = Math.max(busyMs, Number(f[12]));
  }
  return { writtenBytes, busyMs };
}

async function cpuOf(parties: Parties) {
  const postmaster = await postmasterPid(parties.dataDir);
  const database = postmaster > 0 ? await processTree(postmaster) : [];
  const server = (await processTree(parties.server)).filter((pid) => !database.includes(pid));
  return {
    server: await cpuSeconds(server),
    database:
      (await cpuSeconds(database)) + (postmaster > 0 ? await reapedChildrenCpu(postmaster) : 0),
    client: parties.client ? await cpuSeconds(await processTree(parties.client)) : 0,
    reaped: await reapedChildrenCpu('self'),
  };
}

/** What a transfer cost, read from /proc around it. */
export interface Costs {
  seconds: number;
  server_cpu_s: number;
  database_cpu_s: number;
  /** Chromium (every process) or the Node sender / curl processes. */
  client_cpu_s: number;
  server_peak_rss_mib: number;
  disk_written_mib: number;
  disk_busy_pct: number;
}

/** Whether the bench already said it may not drop the page cache (it says so once). */
let cacheKeptSaid = false;

/**
 * Before a transfer: earlier writes flushed, the page cache emptied, and the transfer's sources
 * read back into it. In this VM, writing into page-cache pages the guest has not used before costs
 * the writer several times the CPU of reusing freed ones: the same 2 GiB PUT into the store cost it
 * 7 CPU-s after a drop and 12 once earlier transfers had filled the cache, which charged whichever
 * case happened to run later. When the cache may not be dropped (not root) only the flush happens,
 * and the bench says so once.
 */
export async function settlePageCache(sources: readonly string[]): Promise<void> {
  await run('sync', []);
  const dropped = await writeFile('/proc/sys/vm/drop_caches', '1').then(
    () => true,
    () => false,
  );
  if (!dropped && !cacheKeptSaid) {
    cacheKeptSaid = true;
    process.stderr.write(
      'bench/upload: the page cache is not dropped between transfers (not root)\n',
    );
  }
  if (dropped && sources.length > 0) {
    // A file of Chromium's profile may go between the listing and its read: no failure.
    await run('sh', [
      '-c',
      'find "$@" -type f -print0 | xargs -0 cat > /dev/null 2>&1 || true',
      'sh',
      ...sources,
    ]);
  }
}

/**
 * Runs `work` and charges it: CPU of the server, its database and the client over exactly that
 * time, the server's peak resident memory (VmHWM reset first), and the disk's writes and busy
 * time. `work` answers its own seconds (timed where the transfer runs) and, for a client that
 * is a child reaped meanwhile, may answer its CPU itself.
 */
export async function measure<T extends { seconds: number; client_cpu_s?: number }>(
  parties: Parties,
  work: () => Promise<T>,
): Promise<{ result: T; costs: Costs }> {
  // Writing 5 to clear_refs resets VmHWM, so the peak read afterwards is this transfer's own.
  await writeFile(`/proc/${parties.server}/clear_refs`, '5').catch(() => undefined);
  const before = await cpuOf(parties);
  const diskBefore = await diskCounters();
  const wall = performance.now();
  const result = await work();
  const wallMs = performance.now() - wall;
  const after = await cpuOf(parties);
  const diskAfter = await diskCounters();
  const client =
    result.client_cpu_s ?? after.client - before.client + (after.reaped - before.reaped);
  return {
    result,
    costs: {
      seconds: result.seconds,
      server_cpu_s: hundredths(after.server - before.server),
      database_cpu_s: hundredths(after.database - before.database),
      client_cpu_s: hundredths(client),
      server_peak_rss_mib: Math.round((await peakRss([parties.server])) / MiB),
      disk_written_mib: Math.round((diskAfter.writtenBytes - diskBefore.writtenBytes) / MiB),
      disk_busy_pct: Math.round((100 * (diskAfter.busyMs - diskBefore.busyMs)) / wallMs),
    },
  };
}

/**
 * Which limit a transfer hit, from its costs: the disk when it was busy most of the time; the
 * CPU when the machine's cores were nearly all in use (naming who used most of it); otherwise
 * nothing was saturated and the transfer waited on round trips (requests in flight, each
 * waiting for its answer).
 */
export function limitOf(costs: Costs, clientName: string): string {
  const cores = (cpu: number) => cpu / costs.seconds;
  const shares = {
    server: cores(costs.server_cpu_s),
    database: cores(costs.database_cpu_s),
    [clientName]: cores(costs.client_cpu_s),
  };
  const total = Object.values(shares).reduce((a, b) => a + b, 0);
  const [top, topCores] = Object.entries(shares).sort((a, b) => b[1] - a[1])[0]!;
  const used = Object.entries(shares)
    .map(([who, c]) => `${who} ${c.toFixed(2)}`)
    .join(', ');
  if (costs.disk_busy_pct >= 80) return `disk (busy ${costs.disk_busy_pct} %; cores: ${used})`;
  if (total >= 0.85 * CORES) {
    return `CPU, ${top} first (${total.toFixed(2)} of ${CORES} cores: ${used})`;
  }
  if (topCores >= 0.9) return `${top} CPU, about one core (cores: ${used})`;
  return `round trips: nothing saturated (cores: ${used}; disk busy ${costs.disk_busy_pct} %)`;
}
