/**
 * Idle memory of `npm start` on the embedded defaults: the server right after its first start
 * (migrations and the demo seed just ran) and after a restart on the same data folder, beside a
 * bare Node.js process idling in the same run. The embedded database's own processes (when it
 * runs as processes of its own) are counted too, by proportional set size so that memory they
 * share is counted once.
 *
 *   node --import tsx bench/memory/run.ts [--settle 5]
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { tempDataParent } from '../../apps/server/test/temp-data-dir';
import { embeddedServer, type EmbeddedServer } from '../embedded-server';
import { option } from '../options';
import { currentRss, processTree, stopServer } from '../storage/processes';

const MiB = 1024 * 1024;
const settleSeconds = Number(option('settle', '5'));
const log = (message: string) => process.stderr.write(`bench/memory: ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Proportional set size summed over processes: shared pages split among their sharers. */
async function pss(pids: readonly number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** The embedded PostgreSQL's processes, from the pid its postmaster writes; none otherwise. */
async function databaseProcesses(dataDir: string): Promise<number[]> {
  const pidFile = await readFile(path.join(dataDir, 'db', 'postmaster.pid'), 'utf8').catch(
    () => '',
  );
  const pid = Number(pidFile.split('\n')[0]);
  return pid > 0 ? processTree(pid) : [];
}

const mib = (bytes: number) => Math.round(bytes / MiB);

async function measure(pid: number, dataDir: string) {
  await sleep(settleSeconds * 1000);
  const database = await databaseProcesses(dataDir);
  const server = await processTree(pid);
  return {
    server_rss_mib: mib(await currentRss(server)),
    server_processes: server.length,
    database_processes: database.length,
    database_pss_mib: mib(await pss(database)),
    total_pss_mib: mib((await pss(server)) + (await pss(database))),
  };
}

async function startProduct(product: EmbeddedServer) {
  const started = Date.now();
  const child = await product.start();
  return { child, readyMs: Date.now() - started };
}

async function main(): Promise<void> {
  const workDir = await tempDataParent('bench-memory-');
  const dataDir = path.join(workDir, 'data');
  const product = await embeddedServer(dataDir, { DEMO_PASSWORD: 'bench-Password-1!' });
  try {
    log('baseline: a bare Node.js process');
    const bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
    await sleep(settleSeconds * 1000);
    const baseline = { node_rss_mib: mib(await currentRss([bare.pid!])) };
    bare.kill();

    log('first start (migrations, demo seed)');
    const first = await startProduct(product);
    const firstFigures = { ready_ms: first.readyMs, ...(await measure(first.child.pid!, dataDir)) };
    await stopServer(first.child);

    log('restart on the same data folder');
    const again = await startProduct(product);
    const restartFigures = {
      ready_ms: again.readyMs,
      ...(await measure(again.child.pid!, dataDir)),
    };
    await stopServer(again.child);

    console.log(
      JSON.stringify(
        {
          bench: 'memory',
          method: `npm start's server (embedded defaults) as its own process, idle ${settleSeconds} s after /healthcheck answers; RSS of the Node.js process, PSS of the database's processes`,
          baseline,
          first_start: firstFigures,
          restart: restartFigures,
        },
        null,
        2,
      ),
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
