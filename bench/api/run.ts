/**
 * Requests per second and latency of authenticated API calls beside `/healthcheck` (one query)
 * in the same run: a session's `GET /api/user/` and `GET /api/contracts/`, and an API key's
 * `GET /api/user/`. The server runs as its own process (embedded PostgreSQL, or with DATABASE_URL a scratch
 * database on that PostgreSQL server) with request logging at info level, as deployed; the user
 * is a member of a contract, with a group, so the user's summary has something to read.
 *
 *   node --import tsx bench/api/run.ts [--seconds 10] [--connections 50] [--only user_by_session,...]
 *                                      [--profile DIR]
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { cpus } from 'node:os';
import { eq } from 'drizzle-orm';
import { API_KEY_SCHEME } from '@filerunner/protocol';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { groupMembers, groups, memberships } from '../../apps/server/src/db/schema';
import { createUser } from '../../apps/server/test/harness';
import { benchServerSetting, load, signIn, type Figures } from '../http-load';
import { hundredths } from '../figures';
import { option } from '../options';

const seconds = Number(option('seconds', '10'));
const connections = Number(option('connections', '50'));
/** Some of the calls only (by their names in the output), e.g. while profiling the server. */
const only = option('only', '').split(',').filter(Boolean);
/** Where the server writes a CPU profile (`.cpuprofile`) when it stops; none by default. */
const profileDir = option('profile', '');
const log = (message: string) => process.stderr.write(`bench/api: ${message}\n`);

/** An activated user in a contract, with one group there, written before the server starts. */
async function seedUser(env: Record<string, string>): Promise<string> {
  const built = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
  try {
    const user = await createUser(built, { contract: true, admin: true, send: true });
    const { db } = built.ctx;
    const [membership] = await db.select().from(memberships).where(eq(memberships.userId, user.id));
    const [group] = await db
      .insert(groups)
      .values({ contractId: membership!.contractId, name: 'Editors' })
      .returning();
    await db.insert(groupMembers).values({ groupId: group!.id, userId: user.id });
    return user.email;
  } finally {
    await built.app.close();
  }
}

async function main(): Promise<void> {
  const setting = await benchServerSetting('bench-api-');
  const { origin, env } = setting;
  try {
    log(`seeding (${setting.database})`);
    const email = await seedUser(env);
    await setting.start(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    const { cookie, key } = await signIn(origin, email, { apiKey: true });

    const calls: Array<[string, string, Record<string, string>]> = [
      ['healthcheck', '/healthcheck', {}],
      ['user_by_session', '/api/user/', { cookie }],
      ['contracts_by_session', '/api/contracts/', { cookie }],
      ['user_by_api_key', '/api/user/', { authorization: `${API_KEY_SCHEME} ${key!}` }],
    ];
    const figures: Record<string, Figures & { ratio_to_healthcheck?: number }> = {};
    for (const [name, url, headers] of calls) {
      if (only.length && !only.includes(name)) continue;
      figures[name] = await load(origin + url, headers, { connections, seconds });
      log(`${name}: ${figures[name].requests_per_s} req/s, p99 ${figures[name].p99_ms} ms`);
    }
    const base = figures.healthcheck;
    for (const [name, entry] of Object.entries(figures)) {
      if (!base || name === 'healthcheck') continue;
      entry.ratio_to_healthcheck = hundredths(entry.requests_per_s / base.requests_per_s);
    }

    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      database: setting.database,
      method: `autocannon on 127.0.0.1, ${connections} connections, ${seconds} s per call after 2 s of warm-up, against the server in its own process (LOG_LEVEL info)`,
      ...figures,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await setting.cleanUp();
  }
}

await main();
