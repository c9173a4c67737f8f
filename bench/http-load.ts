/**
 * What the HTTP benches share: a server of their own, signing in as a seeded user, and loading
 * one URL with autocannon after a short unmeasured warm-up.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database';
import { PASSWORD, tempDataParent } from '../apps/server/test/harness';
import { hundredths } from './figures';
import { freePort, startServer, stopServer } from './storage/processes';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** Logs in through the API; answers the session cookie and, when asked, a fresh API key. */
export async function signIn(
  origin: string,
  email: string,
  options: { apiKey?: boolean } = {},
): Promise<{ cookie: string; key?: string }> {
  const headers = { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: 'bench' };
  const login = await fetch(`${origin}/api/authenticate/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  if (!options.apiKey) return { cookie };
  const created = await fetch(`${origin}/api/api_keys/`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!created.ok) throw new Error(`API key answered ${created.status}: ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  return { cookie, key };
}

export interface Figures {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

/** `connections` clients calling one URL for `seconds`, after 2 s of unmeasured warm-up. */
export async function load(
  url: string,
  headers: Record<string, string>,
  run: { connections: number; seconds: number },
): Promise<Figures> {
  const options = { url, headers, connections: run.connections };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: run.seconds });
  return {
    requests_per_s: hundredths(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Where an API bench's server runs: its own data folder and port, on the embedded PostgreSQL, or
 * with DATABASE_URL on a scratch database of that server (dropped at the end). `env` is the
 * server's settings, also for building the app in the bench's process to seed it first.
 */
export async function benchServerSetting(prefix: string) {
  const workDir = await tempDataParent(prefix);
  const scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL)
    : undefined;
  const origin = `http://127.0.0.1:${await freePort()}`;
  const env: Record<string, string> = {
    DATA_DIR: path.join(workDir, 'data'),
    PORT: new URL(origin).port,
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  let server: ChildProcess | undefined;
  return {
    origin,
    env,
    database: scratch ? 'postgresql' : 'embedded postgresql',
    /** Starts the server as its own process (`nodeOptions` before its script, e.g. a profiler). */
    async start(nodeOptions: string[] = []): Promise<void> {
      const serverEnv = { ...process.env, ...env };
      if (!scratch) delete serverEnv.DATABASE_URL;
      server = await startServer(
        process.execPath,
        [...nodeOptions, '--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')],
        async () => (await fetch(`${origin}/healthcheck`)).ok,
        { cwd: path.join(REPO, 'apps/server'), env: serverEnv },
      );
    },
    async cleanUp(): Promise<void> {
      if (server) await stopServer(server);
      await scratch?.drop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
