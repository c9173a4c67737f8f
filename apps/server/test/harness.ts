import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { buildApp, type BuildOptions, type BuiltApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createScratchDatabase } from '../src/db/scratch-database';
import { contracts, defaultContractSettings, users } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { swiftEnvironment, swiftServerSettings } from '../src/storage/swift/swift-test-environment';
import { addMember } from '../src/modules/contracts/contracts.service';
import { insertGroup } from '../src/modules/contracts/groups.repository';
import { linkIn, readMailFolder, waitForMailIn, type CapturedMail } from './captured-mail';

export { linkIn, type CapturedMail };
export { tempDataParent } from './temp-data-dir';

export const PASSWORD = 'Correct-Horse7!';

/**
 * A database for one test file: a fresh database on the PostgreSQL server of the run (the
 * embedded one the global setup starts, or the server DATABASE_URL names), dropped at the end.
 */
async function testDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('No DATABASE_URL: run the tests through vitest.config.ts');
  return createScratchDatabase(serverUrl);
}

export interface TestServer extends BuiltApp {
  dataDir: string;
  close(): Promise<void>;
  /** Mails captured so far (embedded transport), oldest first. */
  mails(): Promise<CapturedMail[]>;
  /** Waits until a captured mail matches, draining the outbox meanwhile. */
  waitForMail(match: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestServer> {
  // A data folder the caller names (a benchmark seeding what its server will then serve) keeps
  // its own embedded database and outlives the test server; otherwise the test server gets a
  // temporary folder and a scratch database, both removed by close().
  const given = env.DATA_DIR;
  const dataDir = given ?? (await mkdtemp(path.join(tmpdir(), 'fr-test-')));
  const database = given ? undefined : await testDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const built = await buildApp(config, options);
  const mailDir = path.join(dataDir, 'mail');
  return {
    ...built,
    dataDir,
    mails: () => readMailFolder(mailDir),
    waitForMail: (match, timeoutMs = 5000) =>
      waitForMailIn(mailDir, match, { timeoutMs, beforeEachLook: () => built.outbox.drain() }),
    async close() {
      await built.app.close();
      if (given) return;
      await database!.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's server, and `caller(server)` for it. */
export interface FileServer {
  server: TestServer;
  as: Caller;
}

/**
 * One server for a test file: started (then `ready` called with it) before the file's tests,
 * closed after them. `ready` keeps what the tests use, e.g. `(t) => ({ server, as } = t)`.
 */
export function useTestServer(
  ready: (t: FileServer) => unknown,
  env: Record<string, string> = {},
  options: BuildOptions = {},
): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env, options);
    await ready({ server, as: caller(server) });
  });
  afterAll(() => server?.close());
}

/**
 * A suite against the OpenStack Swift that SWIFT_AUTH_URL names, reported as skipped (not left
 * out) when it names none. `startServer` starts the suite's test server (once), storing its
 * objects on that Swift; it is closed after the suite.
 */
export function describeOnSwift(
  title: string,
  suite: (startServer: () => Promise<TestServer>) => void,
): void {
  const swift = swiftEnvironment();
  describe.runIf(swift !== null)(title, () => {
    let server: TestServer | undefined;
    afterAll(() => server?.close());
    suite(async () => (server = await startTestServer(swiftServerSettings(swift!))));
  });
}

/** A test file's server with a contract fixture on it (see contractFixture). */
export interface FixtureServer extends FileServer {
  fx: ContractFixture;
}

/** useTestServer, with a contract fixture made on the server before `ready` is called. */
export function useFixtureServer(
  ready: (t: FixtureServer) => unknown,
  env: Record<string, string> = {},
): void {
  useTestServer(async (t) => ready({ ...t, fx: await contractFixture(t.server) }), env);
}

let counter = 0;
/** A unique address per call, so tests sharing a database never collide. */
export function uniqueEmail(name = 'user'): string {
  return `${name}.${process.pid}.${++counter}@example.com`;
}

/** An activated user with PASSWORD, optionally a member of a fresh contract. */
export async function createUser(
  server: BuiltApp,
  options: { email?: string; admin?: boolean; send?: boolean; contract?: boolean } = {},
) {
  const { db } = server.ctx;
  const [user] = await db
    .insert(users)
    .values({
      email: options.email ?? uniqueEmail(),
      firstName: 'Test',
      lastName: 'User',
      passwordHash: await hashPassword(PASSWORD),
      activatedAt: new Date(),
    })
    .returning();
  if (options.contract) {
    const slug = `c-${process.pid}-${++counter}`;
    const [contract] = await db
      .insert(contracts)
      .values({ name: `Contract ${slug}`, slug })
      .returning();
    await addMember(server.ctx, contract!.id, user!.id, {
      admin: options.admin,
      send: options.send,
    });
  }
  return user!;
}

const BASE_HEADERS = { [CLIENT_VERSION_HEADER]: 'test' };

/** Logs in through the API and returns headers that carry the session cookie. */
export async function login(server: BuiltApp, email: string, password = PASSWORD) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/authenticate/',
    headers: BASE_HEADERS,
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'filerunner_session')!;
  return { ...BASE_HEADERS, cookie: `${cookie.name}=${cookie.value}` };
}

export { BASE_HEADERS };

/** An activated user (see createUser) who has logged in: the caller shape `caller` takes. */
export async function loggedInUser(
  server: BuiltApp,
  options: Parameters<typeof createUser>[1] = {},
) {
  const user = await createUser(server, options);
  return { user, headers: await login(server, user.email) };
}

/** Someone calling the API: a logged-in user (see `login`), an API key's headers, or nobody. */
export type Who = { headers: Record<string, string> } | null;
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean>;

export interface Calls {
  request(
    method: Method,
    url: string,
    body?: unknown,
    query?: Query,
  ): Promise<LightMyRequestResponse>;
  get(url: string, query?: Query): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** What `caller` returns: the calls of one caller, `as(who).get(...)`. */
export type Caller = (who: Who) => Calls;

/**
 * Calls the API as someone, through Fastify's inject:
 * `const as = caller(server); await as(fx.admin).post('/api/contracts/x/addgroup/', body)`.
 * A user's headers carry the session cookie and the client-version header; `as(null)` is an
 * anonymous browser call: the client-version header and no cookie.
 */
export function caller(server: BuiltApp): Caller {
  return (who) => {
    const headers = who?.headers ?? BASE_HEADERS;
    const request: Calls['request'] = (method, url, body, query) =>
      server.app.inject({
        method,
        url,
        headers,
        ...(query === undefined ? {} : { query: stringValues(query) }),
        ...(body === undefined ? {} : { payload: body as object }),
      });
    return {
      request,
      get: (url, query) => request('GET', url, undefined, query),
      post: (url, body) => request('POST', url, body),
      patch: (url, body) => request('PATCH', url, body),
      put: (url, body) => request('PUT', url, body),
      delete: (url, body) => request('DELETE', url, body),
    };
  };
}

function stringValues(query: Query): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
}

/**
 * A contract with the four kinds of caller the permission tests need: its admin, a sender, a
 * receive-only member, and a member of another contract; each with logged-in headers.
 */
export async function contractFixture(server: TestServer) {
  const { db } = server.ctx;
  const slug = `fx-${process.pid}-${++counter}`;
  const [contract] = await db
    .insert(contracts)
    .values({ name: `Fixture ${slug}`, slug })
    .returning();
  const join = (permissions: MemberPermissions) =>
    contractMember(server, contract!.id, permissions);
  const admin = await join({ admin: true, send: true, masterGroup: true });
  const sender = await join({ send: true });
  const receiver = await join({});
  const outsiderUser = await createUser(server, { contract: true, admin: true, send: true });
  const outsider = { user: outsiderUser, headers: await login(server, outsiderUser.email) };
  return { contract: contract!, admin, sender, receiver, outsider };
}

/** What contractFixture makes. */
export type ContractFixture = Awaited<ReturnType<typeof contractFixture>>;

type MemberPermissions = { admin?: boolean; send?: boolean; masterGroup?: boolean };

/** A new user who has joined the contract with these permissions, with logged-in headers. */
export async function contractMember(
  server: BuiltApp,
  contractId: number,
  permissions: MemberPermissions,
) {
  const user = await createUser(server);
  await addMember(server.ctx, contractId, user.id, permissions);
  return { user, headers: await login(server, user.email) };
}

/** Sets a contract's settings: the defaults, with `change` over them. */
export async function setContractSettings(
  server: BuiltApp,
  contractId: number,
  change: Partial<typeof defaultContractSettings>,
): Promise<void> {
  await server.ctx.db
    .update(contracts)
    .set({ settings: { ...defaultContractSettings, ...change } })
    .where(eq(contracts.id, contractId));
}

/** A new group `name` of the fixture's sender and receiver: the sender may send to the receiver. */
export function groupOfSenderAndReceiver(server: BuiltApp, fx: ContractFixture, name: string) {
  return insertGroup(server.ctx.db, fx.contract.id, {
    name,
    members: [fx.sender.user.id, fx.receiver.user.id],
  });
}
