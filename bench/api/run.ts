/**
 * Requests per second and latency of authenticated API calls beside `/healthcheck` (one query)
 * in the same run: a session's `GET /api/user/` and `GET /api/contracts/`, and an API key's
 * `GET /api/user/`. The server runs as its own process (embedded PostgreSQL, or with DATABASE_URL a scratch
 * database on that PostgreSQL server) with request logging at info level, as deployed; the user
 * is a member of a contract, with a group, so the user's summary has something to read, and has
 * a 512 KiB profile photo; `--members` (10,000) other people belong to `--contracts` (1,000)
 * other contracts, one group in each.
 *
 *   node --import tsx bench/api/run.ts [--seconds 10] [--connections 50] [--rounds 3]
 *                                      [--members 10000] [--contracts 1000]
 *                                      [--only user_by_session,...]
 *                                      [--profile DIR]
 *
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { API_KEY_SCHEME } from '@filerunner/protocol';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import {
  contracts,
  groupMembers,
  groups,
  memberships,
  users,
} from '../../apps/server/src/db/schema';
import { createUser } from '../../apps/server/test/harness';
import { benchServerSetting, loadInRounds, signIn, type Call } from '../http-load';
import { option } from '../options';

const seconds = Number(option('seconds', '10'));
const connections = Number(option('connections', '50'));
/** How many times each call is loaded, the calls taking turns. */
const rounds = Number(option('rounds', '3'));
/** Some of the calls only (by their names in the output; /healthcheck always runs). */
const only = option('only', '').split(',').filter(Boolean);
/** Where the server writes a CPU profile (`.cpuprofile`) when it stops; none by default. */
const profileDir = option('profile', '');
const AVATAR_BYTES = 512 * 1024;
/** Other people, spread over other contracts (one group in each). */
const otherMembers = Number(option('members', '10000'));
const otherContracts = Number(option('contracts', '1000'));
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
    // The rest of a service with many tenants: other people, each in one of the other
    // contracts and a group there, so that reading one caller's memberships and groups has
    // others' rows to pass over.
    await db.execute(sql`
      with tenants as (
        insert into ${contracts} (slug, name)
        select 'tenant-' || n, 'Tenant ' || n from generate_series(1, ${otherContracts}) n
        returning id
      ), teams as (
        insert into ${groups} (contract_id, name) select id, 'Team' from tenants
        returning id, contract_id
      ), people as (
        insert into ${users} (email, first_name, last_name)
        select 'member' || n || '@bench.test', 'Member', n::text
        from generate_series(1, ${otherMembers}) n
        returning id
      ), placed as (
        select people.id as user_id, teams.id as group_id, teams.contract_id
        from people join (select *, row_number() over (order by id) - 1 as i from teams) teams
          on teams.i = people.id % ${otherContracts}
      ), joined as (
        insert into ${memberships} (contract_id, user_id)
        select contract_id, user_id from placed
      )
      insert into ${groupMembers} (group_id, user_id) select group_id, user_id from placed`);
    // Planned on statistics, as a database that has run a while has them.
    await db.execute(sql`analyze`);
    // A profile photo as people upload them (the limit is 1 MB): the image is the account's
    // largest column, and only the avatar's own route should read it.
    await db
      .update(users)
      .set({ avatar: randomBytes(AVATAR_BYTES), avatarType: 'image/jpeg', avatarVersion: 1 })
      .where(eq(users.id, user.id));
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

    const every: Call[] = [
      ['healthcheck', '/healthcheck', {}],
      ['user_by_session', '/api/user/', { cookie }],
      ['contracts_by_session', '/api/contracts/', { cookie }],
      ['user_by_api_key', '/api/user/', { authorization: `${API_KEY_SCHEME} ${key!}` }],
    ];
    const calls = every.filter(
      ([name]) => name === 'healthcheck' || !only.length || only.includes(name),
    );
    const figures = await loadInRounds(
      origin,
      calls,
      { connections, seconds, rounds, processes: () => setting.processes() },
      log,
    );

    const output = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      database: setting.database,
      method: `autocannon on 127.0.0.1, ${connections} connections, ${seconds} s per call after 2 s of warm-up, the calls in turn ${rounds} times over (median, min, max of the rounds; ratios to /healthcheck in the same round), against the server in its own process (LOG_LEVEL info)`,
      ...figures,
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await setting.cleanUp();
  }
}

await main();
