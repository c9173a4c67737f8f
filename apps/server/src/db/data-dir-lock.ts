import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * One process at a time owns an embedded data folder (its database, objects and captured mail):
 * the server for its lifetime, or the admin CLI while no server runs. The owner holds
 * `<DATA_DIR>/filerunner.lock`, naming itself; a lock whose process is gone (killed, crashed,
 * the machine restarted) is stale and taken over.
 */

export type Holder = 'server' | 'admin CLI';

interface LockRecord {
  pid: number;
  holder: Holder;
  since: string;
  /** The process's start time (Linux), so a pid reused by another process is not mistaken. */
  startTime?: string | undefined;
}

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockRecord,
  ) {
    super(
      `The data folder ${dataDir} is in use by the FileRunner ${owner.holder} ` +
        `(pid ${owner.pid}, since ${owner.since}). Only one process may use an embedded data ` +
        `folder: stop that one first (Ctrl-C in its terminal, or kill ${owner.pid}), or give ` +
        'this one another DATA_DIR. The admin commands (npm run admin) work beside a running server.',
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

const lockFile = (dataDir: string) => path.join(dataDir, 'filerunner.lock');

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(record: LockRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const startTime = processStartTime(record.pid);
  return !record.startTime || !startTime || startTime === record.startTime;
}

async function readRecord(file: string): Promise<LockRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockRecord;
  } catch {
    // Missing, or half-written by a process that died while writing it.
    return undefined;
  }
}

/** Takes the folder for this process, or throws DataDirInUse naming the live owner. */
export async function lockDataDir(dataDir: string, holder: Holder): Promise<DataDirLock> {
  const folder = path.resolve(dataDir);
  await mkdir(folder, { recursive: true });
  const file = lockFile(folder);
  const record: LockRecord = {
    pid: process.pid,
    holder,
    since: new Date().toISOString(),
    startTime: processStartTime(process.pid),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // 'wx' creates the file only if none exists: of two processes starting at once, one wins.
      const handle = await open(file, 'wx', 0o644);
      await handle.writeFile(JSON.stringify(record));
      await handle.close();
      return ownedLock(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readRecord(file);
    if (owner && isAlive(owner)) throw new DataDirInUse(folder, owner);
    // Stale: its process is gone. Remove it and try again (another starter may win the race).
    await unlink(file).catch(() => undefined);
  }
  throw new Error(`Could not take ${file}: it keeps changing; is another process starting?`);
}

/** The live owner of the folder, if any. */
export async function dataDirOwner(dataDir: string): Promise<LockRecord | undefined> {
  const owner = await readRecord(lockFile(path.resolve(dataDir)));
  return owner && isAlive(owner) ? owner : undefined;
}

function ownedLock(file: string): DataDirLock {
  // A process that exits without releasing (an uncaught error) still removes its lock; one
  // killed outright leaves it, and the next start finds its process gone.
  const onExit = () => {
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as LockRecord).pid === process.pid)
        unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  return {
    async release() {
      process.removeListener('exit', onExit);
      onExit();
    },
  };
}
