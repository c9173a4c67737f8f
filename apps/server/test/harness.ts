import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { buildApp, type BuiltApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createScratchDatabase } from '../src/db/scratch-database';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { addMember } from '../src/modules/contracts/contracts.service';
import { contracts } from '../src/db/schema';

export const PASSWORD = 'Correct-Horse7!';

/**
 * A database for one test file: PGlite in a temporary DATA_DIR, or, when DATABASE_URL names a
 * PostgreSQL server, a fresh database created on it (and dropped at the end).
 */
async function testDatabase(): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => undefined };
  return createScratchDatabase(serverUrl);
}

export interface TestServer extends BuiltApp {
  dataDir: string;
  close(): Promise<void>;
  /** Mails captured so far (embedded transport), oldest first. */
  mails(): Promise<ParsedMail[]>;
  /** Waits until a captured mail matches, draining the outbox meanwhile. */
  waitForMail(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fr-test-'));
  const database = await testDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const built = await buildApp(config);
  const mailDir = path.join(dataDir, 'mail');
  const mails = async () => {
    const files = (await readdir(mailDir).catch(() => [] as string[])).sort();
    return Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(mailDir, f)))));
  };
  return {
    ...built,
    dataDir,
    mails,
    async waitForMail(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await built.outbox.drain();
        const found = (await mails()).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching mail arrived');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      await built.app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
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

/** The first http(s) link of a mail's text. */
export function linkIn(mail: ParsedMail): string {
  const link = /https?:\/\/\S+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error('mail has no link');
  return link;
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
  const make = async (permissions: { admin?: boolean; send?: boolean; masterGroup?: boolean }) => {
    const user = await createUser(server);
    await addMember(server.ctx, contract!.id, user.id, permissions);
    return { user, headers: await login(server, user.email) };
  };
  const admin = await make({ admin: true, send: true, masterGroup: true });
  const sender = await make({ send: true });
  const receiver = await make({});
  const outsiderUser = await createUser(server, { contract: true, admin: true, send: true });
  const outsider = { user: outsiderUser, headers: await login(server, outsiderUser.email) };
  return { contract: contract!, admin, sender, receiver, outsider };
}
