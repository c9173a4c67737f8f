import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** A port nobody listens on right now (bound by the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A process and its children (nginx workers), as pids. */
export async function processTree(pid: number): Promise<number[]> {
  const pids = [pid];
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of children.split(' ').filter(Boolean))
      pids.push(...(await processTree(Number(child))));
  }
  return pids;
}

/** Peak resident memory (VmHWM) summed over processes, in bytes. */
export async function peakRss(pids: readonly number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    total += Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** Resident memory now (VmRSS) summed over processes, in bytes. */
export async function currentRss(pids: readonly number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** CPU seconds (user + system, all threads) used so far, summed over processes. */
export async function cpuSeconds(pids: readonly number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / 100;
}

/** Spawns a long-running server and resolves once `ready` says so (or it dies). */
export async function startServer(
  command: string,
  args: readonly string[],
  ready: () => Promise<boolean>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildProcess> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'inherit'] });
  // A server that starts an embedded PostgreSQL on a machine busy with other work may take a
  // minute; what matters is that it comes up, not how fast.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
    if (await ready().catch(() => false)) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} did not become ready`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Installs Debian packages non-interactively, never letting their services start. */
export async function aptInstall(packages: readonly string[]): Promise<void> {
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy)
    await run('sh', ['-c', `printf '#!/bin/sh\\nexit 101\\n' > ${policy} && chmod 755 ${policy}`]);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = [
    '-y',
    '-q',
    '-o',
    'DPkg::Lock::Timeout=300',
    'install',
    '--no-install-recommends',
    ...packages,
  ];
  try {
    await run('apt-get', install, { env }).catch(async () => {
      await run('apt-get', ['-q', 'update'], { env });
      await run('apt-get', install, { env });
    });
  } finally {
    if (ownPolicy) await run('rm', ['-f', policy]);
  }
}
