import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchDatabase } from '../../server/src/db/scratch-database';
import { startTestServer } from '../../server/test/harness';
import { filerunnerProcess, freePort, receivedPackage } from './cli-fixtures';

// The server killed (SIGKILL: nothing of it runs after) while `filerunner receive` is mid-way,
// then started again: the second run fetches what is missing and earns its receipt, though the
// ranges served before the kill were never recorded. The receipt rests on the files the command
// holds, not on the server's records of what it wrote.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const serverDir = fileURLToPath(new URL('../../server', import.meta.url));

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let origin: string;
let port: number;
let apiKey: string;
let slug: string;
let running: ChildProcess | null = null;

beforeAll(async () => {
  database = await createScratchDatabase(process.env.DATABASE_URL!);
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-server-killed-'));
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The package is sent on a test server over the data folder and database the server process
  // then serves.
  const env = { DATA_DIR: path.join(dataDir, 'data'), DATABASE_URL: database.url };
  const seeding = await startTestServer({ ...env, PUBLIC_URL: origin });
  await seeding.app.listen({ host: '127.0.0.1', port });
  ({ slug, apiKey } = await receivedPackage(seeding, origin, { name: 'Dailies day 9' }));
  await seeding.close();
});
afterAll(async () => {
  running?.kill('SIGKILL');
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** `npm start`'s server as its own process on the seeded folder, once it answers. */
async function startServer(extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATA_DIR: path.join(dataDir, 'data'),
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  running = child;
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error('the server exited');
      expect((await fetch(`${origin}/healthcheck`)).ok).toBe(true);
    },
    { timeout: 60_000, interval: 200 },
  );
  return child;
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function receive(out: string, stateHome: string) {
  return filerunnerProcess(['receive', '--out', out, slug], {
    FILERUNNER_URL: origin,
    FILERUNNER_API_KEY: apiKey,
    XDG_STATE_HOME: stateHome,
  });
}

/** Whether the unfinished download's ledger holds any written bytes yet. */
async function ledgerHoldsBytes(ledgerFile: string): Promise<boolean> {
  try {
    return /"ranges":\[\[/.test(await readFile(ledgerFile, 'utf8'));
  } catch {
    return false;
  }
}

describe('filerunner receive, with the server killed mid-way', () => {
  it('finishes after the restart and earns its receipt', async () => {
    const out = path.join(dataDir, 'out');
    const stateHome = path.join(dataDir, 'state');
    const ledgerFile = path.join(
      stateHome,
      'filerunner',
      'downloads',
      `${new URL(origin).host.replace(':', '_')}.json`,
    );

    // Every ranged answer sends half its body and then hangs: the command waits mid-way.
    const stalling = await startServer({ STORE_FAULTS: 'stall=1' });
    const first = receive(out, stateHome);
    await vi.waitFor(async () => expect(await ledgerHoldsBytes(ledgerFile)).toBe(true), {
      timeout: 60_000,
      interval: 100,
    });
    await kill(stalling);
    first.child.kill('SIGKILL');
    await first.done;

    await startServer();
    const second = await receive(out, stateHome).done;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('Received 8 files, each verified.');
    expect(second.stderr).toContain(
      `The server's signed delivery receipt is in ${path.join(out, 'Dailies day 9.receipt.jws')}`,
    );
  });
});
