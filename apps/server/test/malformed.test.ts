import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allRoutes, api, messages, methodOf, pathOf, type ApiRoute } from '@filerunner/protocol';
import { and, eq } from 'drizzle-orm';
import { memberships } from '../src/db/schema';
import { addMember } from '../src/modules/contracts/contracts.service';
import { insertGroup } from '../src/modules/contracts/groups.repository';
import {
  BASE_HEADERS,
  login,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from './harness';
import { fuzzRequest, multipart, urlOf, type Fixture, type FuzzRequest } from './route-fuzz';

/**
 * Random requests per call of the route table, drawn from a fixed seed so a run in CI is the
 * same run everywhere and a failure it reports can be replayed: the walk takes a few seconds
 * (about 8 s for 60 a call on a quiet machine). FUZZ_RUNS_PER_ROUTE and FUZZ_SEED ask for a
 * longer or another hunt.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 27);

let server: TestServer;
let fx: ContractFixture;
/** The admin's session; a fuzzed logout or password change ends it, and it is opened again. */
let adminHeaders: Record<string, string>;
const rows = {} as Record<Fixture, string>;

async function newGroup() {
  rows.group = String(
    await insertGroup(server.ctx.db, fx.contract.id, {
      name: 'Fuzzed',
      members: [fx.receiver.user.id],
    }),
  );
}

/**
 * A package in state uploading, so the upload calls get as far as their handlers. Fuzzed
 * settings may refuse a new one later (a PIN for all): the sent one then stays in use.
 */
async function newPackage() {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${pathOf(api.packages.create)}`,
    headers: adminHeaders,
    payload: {
      contract: fx.contract.slug,
      name: 'Fuzzed',
      recipients: [{ id: fx.receiver.user.id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * 3600_000).toISOString(),
      expected_files: 1,
      expected_size: 5,
      intended_files: [{ filename: 'x.txt', size: 5 }],
    },
  });
  if (response.statusCode === 201) rows.package = response.json<{ slug: string }>().slug;
  return response;
}

/** The receiver back as a plain enabled member, after a fuzzed removal or permission change. */
async function restoreMember() {
  const { contract, receiver } = fx;
  await server.ctx.db
    .delete(memberships)
    .where(and(eq(memberships.contractId, contract.id), eq(memberships.userId, receiver.user.id)));
  await addMember(server.ctx, contract.id, receiver.user.id, {});
}

useFixtureServer(
  async (t) => {
    ({ server, fx } = t);
    adminHeaders = fx.admin.headers;
    rows.contract = fx.contract.slug;
    rows.member = String(fx.receiver.user.id);
    rows.uid = fx.admin.user.uid;
    const key = await server.app.inject({
      method: 'POST',
      url: `/api${pathOf(api.apiKeys.create)}`,
      headers: adminHeaders,
      payload: { name: 'Fuzzed' },
    });
    rows.apiKey = key.json<{ uuid: string }>().uuid;
    await newGroup();
    const created = await newPackage();
    expect(created.statusCode, created.body).toBe(201);
  },
  { LOGIN_RATE_LIMIT: '100000' },
);

/** Puts back what a fuzzed call that succeeded took away, so later calls still reach handlers. */
async function repair(request: FuzzRequest, status: number) {
  if (status >= 300) return;
  const { route, params, body } = request;
  const used = (name: string, fixture: Fixture) => {
    const value = params[name];
    return value !== undefined && 'fixture' in value && value.fixture === fixture;
  };
  if (route === api.accounts.logout && request.caller === 'admin') {
    adminHeaders = await login(server, fx.admin.user.email);
  } else if (route === api.accounts.updatePassword && body && 'json' in body) {
    const { password_new } = body.json as { password_new: string };
    adminHeaders = await login(server, fx.admin.user.email, password_new);
  } else if (route === api.groups.remove && used('groupId', 'group')) {
    await newGroup();
  } else if (
    (route === api.users.remove || route === api.users.updatePermissions) &&
    used('userId', 'member')
  ) {
    await restoreMember();
  } else if (route === api.packages.finalise && used('package', 'package')) {
    await newPackage();
  }
}

async function send(request: FuzzRequest) {
  const headers: Record<string, string> = {
    ...{ anonymous: BASE_HEADERS, admin: adminHeaders, recipient: fx.receiver.headers }[
      request.caller
    ],
  };
  let payload: string | undefined;
  if (request.body && 'json' in request.body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(request.body.json);
  } else if (request.body) {
    headers['content-type'] = 'multipart/form-data; boundary=fuzz';
    payload = multipart(request.body.form, 'fuzz');
  }
  return server.app.inject({
    method: request.method,
    url: urlOf(request, (fixture) => rows[fixture]),
    headers,
    ...(request.query ? { query: request.query } : {}),
    ...(payload === undefined ? {} : { payload }),
  });
}

const describeRequest = (request: FuzzRequest, url: string) =>
  [request.method, url, JSON.stringify(request.query ?? {}), JSON.stringify(request.body ?? null)]
    .map((part) => part.slice(0, 200))
    .join(' ');

describe('malformed requests', () => {
  it(
    'never get a 500 from any call of the route table',
    async () => {
      let made = 0;
      const failures: string[] = [];
      for (const [index, route] of allRoutes.entries()) {
        const call = `${methodOf(route)} ${route.path}`;
        let failed = 0;
        const details = await fc.check(
          fc.asyncProperty(fuzzRequest(route), async (request) => {
            const response = await send(request);
            made++;
            // The first few of each call are enough to see what breaks it.
            if (response.statusCode >= 500 && ++failed <= 3) {
              const url = urlOf(request, (fixture) => rows[fixture]);
              failures.push(
                `${response.statusCode} ${describeRequest(request, url)}: ${response.body}`,
              );
            }
            await repair(request, response.statusCode);
          }),
          // A seed per call: a call added to the table leaves the others' requests as they were.
          { numRuns: RUNS_PER_ROUTE, seed: SEED + index },
        );
        if (failed > 0) {
          failures.push(
            `${call}: ${failed} of ${RUNS_PER_ROUTE} answered 500 (seed ${details.seed})`,
          );
        }
        // A property that threw (not a 500, a broken test) is a failure of its own.
        if (details.failed) failures.push(`${call}: ${String(details.errorInstance)}`);
      }
      console.log(`malformed requests: ${made} fuzzed requests over ${allRoutes.length} calls`);
      expect(failures).toEqual([]);
    },
    3_000 * RUNS_PER_ROUTE,
  );

  it('answers broken JSON, wrong content types and bad forms with 4xx', async () => {
    const withBody = allRoutes.filter((route) => route.body || route.form);
    for (const route of withBody) {
      const url = `/api${pathOf(route, paramsOf(route))}`;
      for (const [type, payload] of [
        ['application/json', '{"email": '],
        ['text/plain', 'hello'],
        ['multipart/form-data; boundary=x', '--x\r\nbroken'],
        ['application/x-www-form-urlencoded', 'a=b'],
      ] as const) {
        const response = await server.app.inject({
          method: methodOf(route),
          url,
          headers: { ...adminHeaders, 'content-type': type },
          payload,
        });
        expect(response.statusCode, `${url} ${type}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${url} ${type}: ${response.body}`).toBeLessThan(500);
      }
    }
  });

  it('refuses NUL characters and ids past the database integer before any query', async () => {
    const nul = messages.text.nulCharacter;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
    const slug = rows.contract;

    const named = await call('POST', `/api/contracts/${slug}/addgroup/`, { name: 'a\u0000b' });
    expect([named.statusCode, named.json()]).toEqual([400, { name: [nul] }]);
    const members = await call('POST', `/api/contracts/${slug}/groups/${rows.group}/`, {
      members: [2_147_483_648],
    });
    expect(members.statusCode).toBe(400);
    expect(Object.keys(members.json())).toEqual(['members']);
    const key = await call('POST', '/api/api_keys/', { name: '\u0000' });
    expect([key.statusCode, key.json()]).toEqual([400, { name: [nul] }]);
    const search = await call('GET', `/api/packages/${slug}/activity/?text=a%00b`);
    expect([search.statusCode, search.json()]).toEqual([400, { text: [nul] }]);

    // A path naming something with a NUL names nothing.
    expect((await call('GET', '/api/contracts/a%00b/groups/')).statusCode).toBe(404);
    expect((await call('GET', '/api/user/avatar/%00/')).statusCode).toBe(404);
    expect((await call('POST', `/api/contracts/${slug}/removeuser/2147483648/`)).statusCode).toBe(
      404,
    );

    const profile = await server.app.inject({
      method: 'POST',
      url: '/api/user/',
      headers: { ...adminHeaders, 'content-type': 'multipart/form-data; boundary=x' },
      payload: multipart({ first_name: 'Ann\u0000', last_name: 'Lee' }, 'x'),
    });
    expect([profile.statusCode, profile.json()]).toEqual([400, { first_name: [nul] }]);
  });

  it('refuses half a surrogate pair in any text with a 400 naming the field', async () => {
    const broken = messages.text.brokenUnicode;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
    const slug = rows.contract;

    // Stored as JSON (jsonb refuses the escape JSON writes for it): this answered 500.
    const settings = await call('POST', `/api/contracts/${slug}/settings/`, {
      notifications: [{ name: 'Ann \uD83D', email: 'ann@example.com', enabled: true }],
    });
    expect(settings.statusCode, settings.body).toBe(400);
    expect(JSON.stringify(settings.json())).toContain(broken);
    const named = await call('POST', `/api/contracts/${slug}/addgroup/`, { name: 'a\uDC00b' });
    expect([named.statusCode, named.json()]).toEqual([400, { name: [broken] }]);
    const key = await call('POST', '/api/api_keys/', { name: '\uD800' });
    expect([key.statusCode, key.json()]).toEqual([400, { name: [broken] }]);
    // A whole emoji (a proper pair) is text like any other.
    const emoji = await call('POST', '/api/api_keys/', { name: 'Key 😀' });
    expect(emoji.statusCode, emoji.body).toBe(201);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/nothing-here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });
});

/** A route's path parameters filled with the fixtures' rows, so the body is what is checked. */
function paramsOf(route: ApiRoute): Record<string, string> {
  return {
    slug: route.path.startsWith('/packages/') ? rows.package : rows.contract,
    contract: rows.contract,
    package: rows.package,
    groupId: rows.group,
    userId: rows.member,
    uid: rows.uid,
    uuid: rows.apiKey,
  };
}
