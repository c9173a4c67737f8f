import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Temp files carry the writer's pid and a per-process id so a restart can tell its own. */
const PROCESS_INCARNATION = randomUUID().slice(0, 8);

/** A fresh temp file name that removeStaleTempFiles can attribute to this process. */
export function newTempPath(tempDir: string): string {
  return path.join(tempDir, `${process.pid}.${PROCESS_INCARNATION}.${randomUUID()}.tmp`);
}

/**
 * Removes temp files a crashed or killed writer left behind: those of processes that are
 * gone, of an earlier run that had this pid, or older than a day. Temp files of writers
 * still running (another process on the same directory) are left alone.
 */
export async function removeStaleTempFiles(tempDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of names) {
    const [pidText, incarnation] = name.split('.');
    const pid = Number(pidText);
    const file = path.join(tempDir, name);
    let stale: boolean;
    if (!Number.isInteger(pid) || pid <= 0) stale = true;
    else if (pid === process.pid) stale = incarnation !== PROCESS_INCARNATION;
    else stale = !isProcessAlive(pid);
    if (!stale) {
      const info = await stat(file).catch(() => null);
      stale = info !== null && info.mtimeMs < dayAgo;
    }
    if (stale) {
      await rm(file, { force: true, recursive: true });
      removed++;
    }
  }
  return removed;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
