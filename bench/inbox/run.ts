/**
 * The Inbox and Sent lists of a contract that has sent 100,000 packages: requests per second,
 * latency and CPU per request (the server's and the database's) of `GET /api/packages/received/`
 * and `/api/packages/sent/` at 50 and 200 concurrent clients, taking turns with `/healthcheck`
 * (one query) in rounds so that each is compared with the healthcheck of its own round, and the
 * plans PostgreSQL chose for the lists' statements (EXPLAIN ANALYZE), so the indexes they use are
 * on record.
 *
 *   node --import tsx bench/inbox/run.ts [--packages 100000] [--seconds 10] [--rounds 3]
 *                                        [--connections 50,200] [--only received,sent]
 *                                        [--profile DIR]
 *
 * The server runs as its own process on the embedded PostgreSQL, or with DATABASE_URL on a
 * scratch database of that server. Prints one JSON document on stdout; progress goes to stderr.
 */
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { buildApp, type BuiltApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { queryRows } from '../../apps/server/src/db/client';
import { addMember } from '../../apps/server/src/modules/contracts/contracts.service';
import { createUser, PASSWORD } from '../../apps/server/test/harness';
import {
  benchServerSetting,
  loadInRounds,
  signIn,
  type Call,
  type CallFigures,
} from '../http-load';
import { option } from '../options';

const packageCount = Number(option('packages', '100000'));
const seconds = Number(option('seconds', '10'));
/** How many times each call is loaded at each number of clients, the calls taking turns. */
const rounds = Number(option('rounds', '3'));
const clientCounts = option('connections', '50,200').split(',').map(Number);
/**
 * Some of the calls only (healthcheck, received, sent), e.g. one list alone under `--profile`;
 * ratios to /healthcheck only when it is one of them.
 */
const only = option('only', '').split(',').filter(Boolean);
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

/**
 * The processes whose CPU a request costs: the server's first, then the database's. On the
 * embedded PostgreSQL those are the server's children; on a PostgreSQL server, the backends
 * connected to the scratch database (the server's pool and its realtime listener).
 */
function databaseProcesses(url: string | undefined, serverTree: () => Promise<number[]>) {
  if (!url) return serverTree;
  return async (): Promise<number[]> => {
    const [server] = await serverTree();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return [server!, ...rows.map((row) => row.pid)];
    } finally {
      await client.end();
    }
  };
}

/** The figures of one call, the database's CPU named for both kinds of database. */
function named(figures: CallFigures, againstHealthcheck: boolean) {
  const {
    embedded_database_cpu_us_per_request: database,
    ratio_to_healthcheck,
    p99_ratio_to_healthcheck,
    ...rest
  } = figures;
  return {
    ...rest,
    ...(database ? { database_cpu_us_per_request: database } : {}),
    ...(againstHealthcheck ? { ratio_to_healthcheck, p99_ratio_to_healthcheck } : {}),
  };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
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
    const calls: Call[] = (
      [
        ['healthcheck', '/healthcheck', {}],
        ['received', `/api/packages/received/${query}`, { cookie: recipient.cookie }],
        ['sent', `/api/packages/sent/${query}`, { cookie: sender.cookie }],
      ] satisfies Call[]
    ).filter(([name]) => !only.length || only.includes(name));
    const processes = databaseProcesses(env.DATABASE_URL, () => setting.processes());
    const figures: Record<string, Record<string, ReturnType<typeof named>>> = {};
    for (const connections of clientCounts) {
      const measured = await loadInRounds(
        origin,
        calls,
        { connections, seconds, rounds, processes },
        (message) => log(`${connections} clients, ${message}`),
      );
      figures[`clients_${connections}`] = Object.fromEntries(
        Object.entries(measured).map(([name, entry]) => [
          name,
          named(entry, calls[0]![0] === 'healthcheck'),
        ]),
      );
    }

    const output = {
      measured_at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        node: process.version,
        load_average: { at_start: loadAtStart, at_end: loadavg() },
      },
      database: setting.database,
      packages_in_contract: packageCount,
      method: `autocannon on 127.0.0.1, ${seconds} s per call after 2 s of warm-up, the calls in turn ${rounds} times over at each number of clients (median, min, max of the rounds; ratios to /healthcheck in the same round), against the server in its own process (LOG_LEVEL info); CPU per request from /proc, the database's being the embedded PostgreSQL's processes or the backends of the scratch database; plans from EXPLAIN ANALYZE of the statements each call ran`,
      ...figures,
      plans,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await setting.cleanUp();
  }
}

await main();
