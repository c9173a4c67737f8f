import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { hundredths } from '../figures';
import { cpuSeconds, peakRss, processTree } from '../storage/processes';

const MiB = 1024 * 1024;
export const CORES = cpus().length;

/** The processes whose CPU a transfer is charged with, found again at each reading. */
export interface Parties {
  server: number;
  /** DATA_DIR of the embedded defaults: the database's postmaster writes its pid there. */
  dataDir: string;
  /** The client's process (Chromium's browser process), when it lives throughout. */
  client?: number;
}

/** The embedded PostgreSQL's processes, from the pid its postmaster writes. */
async function databasePids(dataDir: string): Promise<number[]> {
  const pidFile = await readFile(path.join(dataDir, 'db', 'postmaster.pid'), 'utf8').catch(
    () => '',
  );
  const pid = Number(pidFile.split('\n')[0]);
  return pid > 0 ? processTree(pid) : [];
}

/** CPU seconds of children this process has waited for (curl, the Node sender): cutime + cstime. */
async function reapedChildrenCpu(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
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
  const database = await databasePids(parties.dataDir);
  const server = (await processTree(parties.server)).filter((pid) => !database.includes(pid));
  return {
    server: await cpuSeconds(server),
    database: await cpuSeconds(database),
    client: parties.client ? await cpuSeconds(await processTree(parties.client)) : 0,
    reaped: await reapedChildrenCpu(),
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
