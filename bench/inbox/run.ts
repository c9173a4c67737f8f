/**
 * The Inbox and Sent lists of a contract that has sent 100,000 packages: requests per second and
 * latency of `GET /api/packages/received/` and `/api/packages/sent/` at 50 and 200 concurrent
 * clients, beside `/healthcheck` (one query) in the same run, and the plans PostgreSQL chose for
 * the lists' statements (EXPLAIN ANALYZE), so the indexes they use are on record.
 *
 *   node --import tsx bench/inbox/run.ts [--packages 100000] [--seconds 10] [--profile DIR]
 *
 * The server runs as its own process on the embedded PostgreSQL, or with DATABASE_URL on a
 * scratch database of that server. Prints one JSON document on stdout; progress goes to stderr.
 */
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { buildApp, type BuiltApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { queryRows } from '../../apps/server/src/db/client';
import { addMember } from '../../apps/server/src/modules/contracts/contracts.service';
import { createUser, PASSWORD } from '../../apps/server/test/harness';
import { hundredths } from '../figures';
import { benchServerSetting, load, signIn, type Figures } from '../http-load';
import { option } from '../options';

const packageCount = Number(option('packages', '100000'));
const seconds = Number(option('seconds', '10'));
/** Where the server writes a CPU profile (`.cpuprofile`) when it stops; none by default. */
const profileDir = option('profile', '');
const log = (message: string) => process.stderr.write(`bench/inbox: ${message}\n`);

interface Seeded {
  contractSlug: string;
  senderEmail: string;
  recipientEmail: string;
}

/**
 * A contract whose sender has sent `packageCount` finalised packages, a second apart, each to
 * the one recipient; written in two statements, as creating them through the API would take
 * hours.
 */
async function seed(built: BuiltApp): Promise<Seeded> {
  const sender = await createUser(built, { contract: true, send: true });
  const { db } = built.ctx;
  const [membership] = await queryRows<{ contract_id: number; slug: string }>(
    db,
    sql`select m.contract_id, c.slug from memberships m join contracts c on c.id = m.contract_id
        where m.user_id = ${sender.id}`,
  );
  const recipient = await createUser(built);
  await addMember(built.ctx, membership!.contract_id, recipient.id, {});
  await db.execute(sql`
    insert into packages (slug, contract_id, sender_id, name, status, bytes, num_files,
                          valid_from, expires_at, sent_at, created_at)
    select 'bench-' || g, ${membership!.contract_id}, ${sender.id}, 'Package ' || g, 'complete',
           1000000 + g, 1 + g % 50,
           now() - make_interval(secs => g), now() + interval '10 days' - make_interval(secs => g),
           now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(1, ${packageCount}) g`);
  await db.execute(sql`
    insert into package_recipients (package_id, user_id, email)
    select id, ${recipient.id}, ${recipient.email} from packages
    where contract_id = ${membership!.contract_id}`);
  await db.execute(sql`analyze`);
  return {
    contractSlug: membership!.slug,
    senderEmail: sender.email,
    recipientEmail: recipient.email,
  };
}

/**
 * The statements one call runs, caught at the pool while the app answers it in this process,
 * each explained with the values it ran with.
 */
async function plansOf(built: BuiltApp, url: string, email: string): Promise<string[][]> {
  const login = await built.app.inject({
    method: 'POST',
    url: '/api/authenticate/',
    headers: { [CLIENT_VERSION_HEADER]: 'bench' },
    payload: { email, password: PASSWORD },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const pool = (built.ctx.db as unknown as { $client: pg.Pool }).$client;
  const caught: Array<{ text: string; values: unknown[] }> = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((config: unknown, values?: unknown) => {
    const c = config as { text?: string; values?: unknown[] };
    if (typeof config === 'string')
      caught.push({ text: config, values: (values as unknown[]) ?? [] });
    else if (c.text) caught.push({ text: c.text, values: c.values ?? (values as unknown[]) ?? [] });
    return query(config, values);
  }) as typeof pool.query;
  try {
    const answer = await built.app.inject({ method: 'GET', url, headers: { cookie } });
    if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  } finally {
    pool.query = query as typeof pool.query;
  }
  const plans: string[][] = [];
  // The session lookup every signed-in call runs is measured by bench/api; these are the list's.
  for (const { text, values } of caught.filter((q) => q.text.includes('"packages"'))) {
    const explained = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off, timing off) ${text}`,
      values,
    );
    plans.push(explained.rows.map((row) => row['QUERY PLAN']));
  }
  return plans;
}

async function main(): Promise<void> {
  const setting = await benchServerSetting('bench-inbox-');
  const { origin, env } = setting;
  try {
    log(`seeding ${packageCount} packages (${setting.database})`);
    const built = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
    let seeded: Seeded;
    let plans: Record<string, string[][]>;
    try {
      seeded = await seed(built);
      const query = `?contract_slug=${seeded.contractSlug}`;
      plans = {
        received: await plansOf(built, `/api/packages/received/${query}`, seeded.recipientEmail),
        sent: await plansOf(built, `/api/packages/sent/${query}`, seeded.senderEmail),
      };
    } finally {
      await built.app.close();
    }

    await setting.start(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    const recipient = await signIn(origin, seeded.recipientEmail);
    const sender = await signIn(origin, seeded.senderEmail);
    const query = `?contract_slug=${seeded.contractSlug}`;
    const calls: Array<[string, string, Record<string, string>]> = [
      ['healthcheck', '/healthcheck', {}],
      ['received', `/api/packages/received/${query}`, { cookie: recipient.cookie }],
      ['sent', `/api/packages/sent/${query}`, { cookie: sender.cookie }],
    ];
    const figures: Record<string, Record<string, Figures & { ratio_to_healthcheck?: number }>> = {};
    for (const connections of [50, 200]) {
      const round: Record<string, Figures & { ratio_to_healthcheck?: number }> = {};
      for (const [name, url, headers] of calls) {
        round[name] = await load(origin + url, headers, { connections, seconds });
        log(
          `${connections} clients, ${name}: ${round[name].requests_per_s} req/s, p99 ${round[name].p99_ms} ms`,
        );
      }
      for (const [name, entry] of Object.entries(round)) {
        if (name !== 'healthcheck') {
          entry.ratio_to_healthcheck = hundredths(
            entry.requests_per_s / round.healthcheck!.requests_per_s,
          );
        }
      }
      figures[`clients_${connections}`] = round;
    }

    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      database: setting.database,
      packages_in_contract: packageCount,
      method: `autocannon on 127.0.0.1, ${seconds} s per call after 2 s of warm-up, against the server in its own process (LOG_LEVEL info); plans from EXPLAIN ANALYZE of the statements each call ran`,
      ...figures,
      plans,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await setting.cleanUp();
  }
}

await main();
