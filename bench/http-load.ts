/**
 * What the HTTP benches share: a server of their own, signing in as a seeded user, and loading
 * one URL with autocannon after a short unmeasured warm-up.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { api, createRouteClient } from '@filerunner/protocol';
import { keepingSessionCookie } from '@filerunner/transfer/node';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database';
import { serverNodeArgs } from '../apps/server/src/node-flags';
import { PASSWORD, tempDataParent } from '../apps/server/test/harness';
import { hundredths, summary } from './figures';
import { cpuSeconds, freePort, processTree, startServer, stopServer } from './storage/processes';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** Logs in through the API; answers the session cookie and, when asked, a fresh API key. */
export async function signIn(
  origin: string,
  email: string,
  options: { apiKey?: boolean } = {},
): Promise<{ cookie: string; key?: string }> {
  const http = keepingSessionCookie();
  const client = createRouteClient({ http, baseUrl: `${origin}/api`, clientVersion: 'bench' });
  await client.call(api.accounts.authenticate, { body: { email, password: PASSWORD } });
  const cookie = http.cookie!;
  if (!options.apiKey) return { cookie };
  const { key } = await client.call(api.apiKeys.create, { body: { name: 'bench' } });
  return { cookie, key };
}

export interface Figures {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

const WARM_UP_SECONDS = 2;

/** `connections` clients calling one URL for `seconds`, after 2 s of unmeasured warm-up. */
export async function load(
  url: string,
  headers: Record<string, string>,
  run: { connections: number; seconds: number },
): Promise<Figures> {
  const options = { url, headers, connections: run.connections };
  await autocannon({ ...options, duration: WARM_UP_SECONDS });
  const result = await autocannon({ ...options, duration: run.seconds });
  return {
    requests_per_s: hundredths(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A call to load: its name in the output, its URL and the headers it sends. */
export type Call = [name: string, url: string, headers: Record<string, string>];

export interface CallFigures {
  requests_per_s: ReturnType<typeof summary>;
  p50_ms: ReturnType<typeof summary>;
  p99_ms: ReturnType<typeof summary>;
  /** CPU the server's own process spent per request. */
  server_cpu_us_per_request: ReturnType<typeof summary>;
  /** CPU its child processes spent per request: the embedded PostgreSQL's, when it runs one. */
  embedded_database_cpu_us_per_request?: ReturnType<typeof summary>;
  non_2xx: number;
  errors: number;
  /** Each round's requests/s and p99 as a share of the first call's in that round. */
  ratio_to_healthcheck?: ReturnType<typeof summary>;
  p99_ratio_to_healthcheck?: ReturnType<typeof summary>;
}

/**
 * Loads each call in turn, `rounds` times over (first, second, ..., first, second, ...), so that
 * whatever else the machine does drifts over all of them alike; each call is compared with the
 * first one in its own round. Answers median, min and max over the rounds.
 */
export async function loadInRounds(
  origin: string,
  calls: readonly Call[],
  run: { connections: number; seconds: number; rounds: number; processes: () => Promise<number[]> },
  log: (message: string) => void,
): Promise<Record<string, CallFigures>> {
  const measured = new Map<string, Array<Figures & { serverUs: number; databaseUs: number }>>();
  for (let round = 1; round <= run.rounds; round++) {
    for (const [name, url, headers] of calls) {
      const [server, ...children] = await run.processes();
      const cpu = async () => [await cpuSeconds([server!]), await cpuSeconds(children)];
      const before = await cpu();
      const figures = await load(origin + url, headers, run);
      const after = await cpu();
      // The unmeasured warm-up's requests are in the CPU too; counted at the measured rate.
      const requests = figures.requests_per_s * (run.seconds + WARM_UP_SECONDS);
      const usPerRequest = (i: number) => ((after[i]! - before[i]!) * 1e6) / requests;
      measured.set(name, [
        ...(measured.get(name) ?? []),
        {
          ...figures,
          serverUs: usPerRequest(0),
          databaseUs: children.length ? usPerRequest(1) : NaN,
        },
      ]);
      log(`round ${round}, ${name}: ${figures.requests_per_s} req/s, p99 ${figures.p99_ms} ms`);
    }
  }
  const first = measured.get(calls[0]![0])!;
  const output: Record<string, CallFigures> = {};
  for (const [name, rounds] of measured) {
    output[name] = {
      requests_per_s: summary(rounds.map((r) => r.requests_per_s)),
      p50_ms: summary(rounds.map((r) => r.p50_ms)),
      p99_ms: summary(rounds.map((r) => r.p99_ms)),
      server_cpu_us_per_request: summary(rounds.map((r) => r.serverUs)),
      ...(Number.isNaN(rounds[0]!.databaseUs)
        ? {}
        : { embedded_database_cpu_us_per_request: summary(rounds.map((r) => r.databaseUs)) }),
      non_2xx: rounds.reduce((sum, r) => sum + r.non_2xx, 0),
      errors: rounds.reduce((sum, r) => sum + r.errors, 0),
      ...(name === calls[0]![0]
        ? {}
        : {
            ratio_to_healthcheck: summary(
              rounds.map((r, i) => r.requests_per_s / first[i]!.requests_per_s),
            ),
            p99_ratio_to_healthcheck: summary(rounds.map((r, i) => r.p99_ms / first[i]!.p99_ms)),
          }),
    };
  }
  return output;
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
        serverNodeArgs(nodeOptions),
        async () => (await fetch(`${origin}/healthcheck`)).ok,
        { cwd: path.join(REPO, 'apps/server'), env: serverEnv },
      );
    },
    /** The server's process and its children (the embedded PostgreSQL's, when it runs one). */
    async processes(): Promise<number[]> {
      return server?.pid ? processTree(server.pid) : [];
    },
    async cleanUp(): Promise<void> {
      if (server) await stopServer(server);
      await scratch?.drop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
