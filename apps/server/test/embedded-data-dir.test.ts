import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, CLIENT_VERSION_HEADER, pathOf, type GroupsResponse } from '@filerunner/protocol';
import { embeddedUrl, stopEmbeddedPostgres } from '../src/db/embedded-postgres';
import { tempDataParent } from './temp-data-dir';

/**
 * The embedded defaults as an operator runs them: `npm start`'s server and `npm run admin`'s
 * CLI as real processes on one data folder, killed and started again.
 */

// Each test starts and stops real processes (a server compiles its sources as it starts).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const DEMO_PASSWORD = 'Embedded-Demo-1!';

let parent: string;
let dataDir: string;
let port: number;
let origin: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const env = () => {
  const out: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DEMO_PASSWORD,
    LOG_LEVEL: 'warn',
  };
  // The embedded default: no database server named.
  delete out.DATABASE_URL;
  return out;
};

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(script: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: serverDir,
    env: { ...env(), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

async function startServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  const server = run('src/main.ts', [], extraEnv);
  await vi.waitFor(
    async () => {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
      const response = await fetch(`${origin}/healthcheck`);
      if (!response.ok) throw new Error('not ready');
    },
    { timeout: 60_000, interval: 100 },
  );
  return server;
}

async function stopServer(server: Run) {
  server.child.kill('SIGTERM');
  await server.exited;
}

async function admin(...args: string[]) {
  const cli = run('src/cli/admin.ts', args);
  return { code: await cli.exited, output: cli.output() };
}

/** Signs in as the demo admin; answers a caller of the API with that session. */
async function signIn() {
  const headers = { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: 'test' };
  const login = await fetch(`${origin}/api${pathOf(api.accounts.authenticate, {})}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: 'admin@example.com', password: DEMO_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  return (method: string, url: string, body?: unknown) =>
    fetch(`${origin}/api${url}`, {
      method,
      headers: { ...headers, cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

beforeAll(async () => {
  parent = await tempDataParent('fr-embedded-');
  dataDir = path.join(parent, 'data');
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await stopEmbeddedPostgres(dataDir);
  await rm(parent, { recursive: true, force: true });
});

describe('one process per embedded data folder', () => {
  it('refuses a second server on the folder, naming the one that holds it', async () => {
    const server = await startServer();
    try {
      const second = run('src/main.ts');
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `The data folder ${dataDir} is in use by the FileRunner server (pid ${server.child.pid}`,
      );
      expect(second.output()).toContain('stop that one first');
      // The first server never noticed.
      expect((await fetch(`${origin}/healthcheck`)).ok).toBe(true);
    } finally {
      await stopServer(server);
    }
  });

  it('starts after a server killed with -9, whose lock is left behind', async () => {
    const killed = await startServer();
    killed.child.kill('SIGKILL');
    await killed.exited;
    const lock = JSON.parse(await readFile(path.join(dataDir, 'filerunner.lock'), 'utf8')) as {
      pid: number;
    };
    expect(lock.pid).toBe(killed.child.pid);

    const next = await startServer();
    await stopServer(next);
  });
});

describe('a node told to stop', () => {
  it('drains: /readyz says so while everything is still served, then it exits', async () => {
    const server = await startServer({ DRAIN_SECONDS: '3' });
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await vi.waitFor(
      async () => {
        const readyz = await fetch(`${origin}/readyz`);
        expect(readyz.status).toBe(503);
        expect(await readyz.json()).toEqual({ status: 'draining', problems: [] });
      },
      { timeout: 2_000, interval: 50 },
    );
    // Still serving while it drains: a balancer that has not looked yet loses nothing.
    expect((await fetch(`${origin}/healthcheck`)).ok).toBe(true);
    await signIn();
    expect(await server.exited).toBe(0);
  });
});

describe('the admin CLI beside a running embedded server', () => {
  it("keeps every command's change after the server restarts", async () => {
    const server = await startServer();
    const created = await admin(
      'create-contract',
      '--name',
      'CLI Co',
      '--admin-email',
      'cli@example.com',
    );
    expect(created).toEqual({
      code: 0,
      output: 'Created contract "CLI Co" (slug cli-co); activation mail sent to cli@example.com.\n',
    });
    expect(await admin('disable-contract', '--slug', 'demo')).toMatchObject({ code: 0 });
    expect(await admin('enable-contract', '--slug', 'demo')).toMatchObject({ code: 0 });
    expect(await admin('disable-branding', '--slug', 'cli-co')).toEqual({
      code: 0,
      output: 'Custom branding of contract cli-co disabled.\n',
    });
    expect(await admin('disable-contract', '--slug', 'nope')).toEqual({
      code: 1,
      output: 'No contract with slug nope\n',
    });

    await stopServer(server);
    const restarted = await startServer();
    try {
      expect((await admin('list-contracts')).output).toBe(
        'demo\tenabled\tbranding enabled\tstorage quota unlimited\tlargest package unlimited\t' +
          'Demo Contract\n' +
          'cli-co\tenabled\tbranding disabled\tstorage quota unlimited\tlargest package unlimited\t' +
          'CLI Co\n',
      );
    } finally {
      await stopServer(restarted);
    }
  });

  it('works with no server running, and leaves nothing running', async () => {
    expect(await admin('enable-branding', '--slug', 'cli-co')).toEqual({
      code: 0,
      output: 'Custom branding of contract cli-co enabled.\n',
    });
    await expect(readFile(path.join(dataDir, 'filerunner.lock'))).rejects.toThrow();
    await expect(readFile(path.join(dataDir, 'db', 'postmaster.pid'))).rejects.toThrow();
  });
});

describe('durability of the embedded database', () => {
  it('writes every commit to disk before answering (fsync on, synchronous commit)', async () => {
    const server = await startServer();
    const client = new pg.Client({ connectionString: embeddedUrl(path.join(dataDir, 'db')) });
    await client.connect();
    try {
      const setting = async (name: string) =>
        (
          await client.query<{ setting: string }>(
            'select setting from pg_settings where name = $1',
            [name],
          )
        ).rows[0]!.setting;
      expect(await setting('fsync')).toBe('on');
      expect(await setting('synchronous_commit')).toBe('on');
      expect(await setting('wal_sync_method')).not.toBe('');
    } finally {
      await client.end();
      await stopServer(server);
    }
  });

  it('loses no acknowledged write when the server and its database are killed mid-burst', async () => {
    const server = await startServer();
    const call = await signIn();
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let i = 0; !stop; i++) {
        const name = `burst-${worker}-${i}`;
        const response = await call('POST', pathOf(api.groups.add, { slug: 'demo' }), {
          name,
        }).catch(() => undefined);
        if (response?.status === 201) acknowledged.push(name);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(50), {
      timeout: 60_000,
      interval: 20,
    });
    // Both at once, as a crash would: the app, then its database with no chance to flush.
    const postmaster = Number(
      (await readFile(path.join(dataDir, 'db', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    server.child.kill('SIGKILL');
    process.kill(postmaster, 'SIGKILL');
    stop = true;
    await Promise.all(writers);
    await server.exited;
    const seen = [...acknowledged];

    const restarted = await startServer();
    try {
      const again = await signIn();
      const listed = (await (
        await again('GET', pathOf(api.groups.list, { slug: 'demo' }))
      ).json()) as GroupsResponse;
      const names = new Set(listed.groups.map((g) => g.name));
      expect(seen.filter((name) => !names.has(name))).toEqual([]);
    } finally {
      await stopServer(restarted);
    }
  });
});
