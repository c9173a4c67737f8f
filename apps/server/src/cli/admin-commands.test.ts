import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkIn, readMailFolder } from '../../test/captured-mail';
import { loadConfig } from '../config';
import { buildApp } from '../app';
import { createContext, type Context } from '../context';
import { contracts, users } from '../db/schema';
import { listContractUsers } from '../modules/contracts/users.service';
import { createScratchDatabase } from '../db/scratch-database';
import { adminProgram, withAdminContext } from './admin-commands';

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  database = await createScratchDatabase(process.env.DATABASE_URL!);
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-admin-'));
  env = {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    SEED_DEMO: 'false',
    // A Swift cluster nobody answers for: a command that logged in to storage would fail.
    STORAGE_DRIVER: 'swift',
    SWIFT_AUTH_URL: 'http://127.0.0.1:9/auth/v1.0',
    SWIFT_USER: 'test:tester',
    SWIFT_KEY: 'testing',
    SWIFT_TEMPURL_KEY: 'a-temp-url-key-of-16+',
  };
});

afterAll(async () => {
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Sessions on the scratch database, seen from outside the context under test. */
async function sessionsOnDatabase(): Promise<{ all: number; listening: number }> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ all: string; listening: string }>(
      `select count(*) as all, count(*) filter (where query ilike 'listen %') as listening
       from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return { all: Number(rows[0]!.all), listening: Number(rows[0]!.listening) };
  } finally {
    await client.end();
  }
}

/** The sessions once those just closed have gone (a backend ends a moment after its client). */
async function sessionsAfterClose(): Promise<{ all: number; listening: number }> {
  for (let attempt = 0; ; attempt++) {
    const sessions = await sessionsOnDatabase();
    if (sessions.all === 0 || attempt === 20) return sessions;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Servers of this process that listen on a port (HTTP or any other). */
function listeningServers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
}

interface Seen {
  listening: number;
  servers: number;
}

/** Runs one admin command as the CLI does, noting what was open while it ran, and its output. */
const admin = (...argv: string[]) => adminIn(env, ...argv);

/** `admin` with the CLI's environment as given. */
async function adminIn(
  env: Record<string, string>,
  ...argv: string[]
): Promise<{ output: string; seen: Seen }> {
  let seen: Seen | undefined;
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await adminProgram((work) =>
      withAdminContext(async (ctx) => {
        await work(ctx);
        seen = { listening: (await sessionsOnDatabase()).listening, servers: listeningServers() };
      }, env),
    ).parseAsync(argv, { from: 'user' });
  } finally {
    write.mockRestore();
  }
  return { output: written.join(''), seen: seen! };
}

describe('the admin CLI', () => {
  it('runs its commands on a context: no port, no realtime listener, no storage login', async () => {
    const serversBefore = listeningServers();
    const created = await admin(
      'create-contract',
      '--name',
      'Acme',
      '--admin-email',
      'boss@example.com',
    );
    expect(created.output).toMatch(/^Created contract "Acme" \(slug [^)]+\); activation mail/);
    const mails = await readMailFolder(path.join(dataDir, 'mail'));
    expect(mails.map((m) => JSON.stringify(m.to))).toEqual([
      expect.stringContaining('boss@example.com'),
    ]);

    const [contract] = await (async () => {
      const ctx = await createContext(loadConfig(env), { storage: false });
      try {
        return await ctx.db.select().from(contracts).where(eq(contracts.name, 'Acme'));
      } finally {
        await ctx.close();
      }
    })();
    const slug = contract!.slug;

    const disabled = await admin('disable-contract', '--slug', slug);
    expect(disabled.output).toBe(`Contract ${slug} disabled.\n`);
    const branded = await admin('enable-branding', '--slug', slug);
    expect(branded.output).toBe(`Custom branding of contract ${slug} enabled.\n`);
    const listed = await admin('list-contracts');
    expect(listed.output).toBe(
      `${slug}\tdisabled\tbranding enabled\tstorage quota unlimited\t` +
        `largest package unlimited\tAcme\n`,
    );

    for (const { seen } of [created, disabled, branded, listed]) {
      expect(seen).toEqual({ listening: 0, servers: serversBefore });
    }
    // Each command closed what it opened.
    expect(await sessionsAfterClose()).toEqual({ all: 0, listening: 0 });
  });

  it("sets a contract's storage quota and largest package", async () => {
    await admin(
      'create-contract',
      '--name',
      'Quota Co',
      '--admin-email',
      'quota-boss@example.com',
      '--storage-quota',
      '500GB',
      '--max-package-size',
      '10 GiB',
    );
    const limits = async () => {
      const ctx = await createContext(loadConfig(env), { storage: false });
      try {
        const [row] = await ctx.db
          .select({
            slug: contracts.slug,
            storageQuota: contracts.storageQuota,
            maxPackageSize: contracts.maxPackageSize,
          })
          .from(contracts)
          .where(eq(contracts.name, 'Quota Co'));
        return row!;
      } finally {
        await ctx.close();
      }
    };
    const created = await limits();
    expect(created).toMatchObject({ storageQuota: 500e9, maxPackageSize: 10 * 2 ** 30 });
    const { slug } = created;

    const lowered = await admin('set-quotas', '--slug', slug, '--max-package-size', '2GB');
    expect(lowered.output).toBe(`Contract ${slug}: largest package 2 GB.\n`);
    expect(await limits()).toMatchObject({ storageQuota: 500e9, maxPackageSize: 2e9 });

    const lifted = await admin('set-quotas', '--slug', slug, '--storage-quota', 'unlimited');
    expect(lifted.output).toBe(`Contract ${slug}: storage quota unlimited.\n`);
    expect(await limits()).toMatchObject({ storageQuota: null, maxPackageSize: 2e9 });
    const listed = await admin('list-contracts');
    expect(listed.output).toContain(
      `${slug}\tenabled\tbranding enabled\tstorage quota unlimited\tlargest package 2 GB\tQuota Co\n`,
    );

    for (const [args, message] of [
      [['--storage-quota', 'lots'], '--storage-quota must be a size'],
      [['--max-package-size', '0'], '--max-package-size must be a size'],
      [[], 'Give --storage-quota, --max-package-size or both'],
    ] as const) {
      await expect(admin('set-quotas', '--slug', slug, ...args)).rejects.toThrow(message);
    }
    await expect(admin('set-quotas', '--slug', 'nobody', '--storage-quota', '1GB')).rejects.toThrow(
      'No contract with slug nobody',
    );
    expect(await limits()).toMatchObject({ storageQuota: null, maxPackageSize: 2e9 });
  });

  it('tells an existing account it was added to the new contract, and keeps its name', async () => {
    const email = 'ada.existing@example.com';
    await withAdminContext(async (ctx) => {
      await ctx.db.insert(users).values({
        email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        activatedAt: new Date(),
      });
    }, env);
    const mailsBefore = (await readMailFolder(path.join(dataDir, 'mail'))).length;

    const created = await admin(
      'create-contract',
      '--name',
      'Second Studio',
      '--admin-email',
      email,
    );
    expect(created.output).toMatch(
      /^Created contract "Second Studio" \(slug [^)]+\); ada\.existing@example\.com already has an account and was mailed that it was added\.\n$/,
    );
    const mails = (await readMailFolder(path.join(dataDir, 'mail'))).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(JSON.stringify(mails[0]!.to)).toContain(email);
    expect(mails[0]!.subject).toBe('You have been added to Second Studio on FileRunner');
    expect(mails[0]!.text).toContain('Log in with your existing password');
    expect(mails[0]!.text).not.toContain('/activate/');

    // The new contract's User List: the person's own name, active (not "Pending"), its admin.
    await withAdminContext(async (ctx) => {
      const [contract] = await ctx.db
        .select()
        .from(contracts)
        .where(eq(contracts.name, 'Second Studio'));
      const list = await listContractUsers(ctx.db, contract!.id);
      expect(list).toEqual([
        expect.objectContaining({
          email,
          first_name: 'Ada',
          last_name: 'Lovelace',
          name: 'Ada Lovelace',
          activated: true,
          admin: true,
        }),
      ]);
    }, env);
  });

  it("mails the server's public URL, and refuses to mail before a server recorded one", async () => {
    const { PUBLIC_URL: _own, ...cliEnv } = env;
    const create = (name: string, email: string) =>
      adminIn(cliEnv, 'create-contract', '--name', name, '--admin-email', email);
    await expect(create('Unlinked', 'unlinked@example.com')).rejects.toThrow(
      /public URL.*PUBLIC_URL/,
    );
    await withAdminContext(async (ctx) => {
      expect(await ctx.db.select().from(contracts).where(eq(contracts.name, 'Unlinked'))).toEqual(
        [],
      );
    }, cliEnv);

    // A server started on the same database records its own.
    const serverEnv = {
      ...env,
      PUBLIC_URL: 'https://files.example.test',
      STORAGE_DRIVER: 'embedded',
    };
    const server = await buildApp(loadConfig(serverEnv));
    await server.app.close();

    const mailsBefore = (await readMailFolder(path.join(dataDir, 'mail'))).length;
    await create('Linked', 'linked@example.com');
    const [mail] = (await readMailFolder(path.join(dataDir, 'mail'))).slice(mailsBefore);
    expect(linkIn(mail!)).toMatch(/^https:\/\/files\.example\.test\/activate\//);
  });

  it('keeps the recorded public URL from a server on the default, warns when one replaces it', async () => {
    const { PUBLIC_URL: _own, ...cliEnv } = env;
    const serverEnv = { ...cliEnv, STORAGE_DRIVER: 'embedded' };
    const startAndStop = async (serverEnv: Record<string, string>) => {
      const lines: string[] = [];
      const server = await buildApp(loadConfig(serverEnv), {
        logStream: { write: (line: string) => void lines.push(line) },
      });
      await server.app.close();
      return lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    };
    const mailedLink = async (name: string, email: string) => {
      const mailsBefore = (await readMailFolder(path.join(dataDir, 'mail'))).length;
      await adminIn(cliEnv, 'create-contract', '--name', name, '--admin-email', email);
      const [mail] = (await readMailFolder(path.join(dataDir, 'mail'))).slice(mailsBefore);
      return linkIn(mail!);
    };

    await startAndStop({ ...serverEnv, PUBLIC_URL: 'https://files.example.test' });
    // A node left on the default (a developer's, say) is no public address: links stay.
    await startAndStop(serverEnv);
    expect(await mailedLink('After Default', 'after-default@example.com')).toMatch(
      /^https:\/\/files\.example\.test\/activate\//,
    );

    // Another explicit one is recorded, and the node says whose it replaced.
    const log = await startAndStop({ ...serverEnv, PUBLIC_URL: 'https://moved.example.test' });
    expect(log).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(
          /https:\/\/files\.example\.test.*https:\/\/moved\.example\.test/,
        ),
      }),
    );
    expect(await mailedLink('After Move', 'after-move@example.com')).toMatch(
      /^https:\/\/moved\.example\.test\/activate\//,
    );
    const again = await startAndStop({ ...serverEnv, PUBLIC_URL: 'https://moved.example.test' });
    expect(again.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('would see the realtime listener if a context started it', async () => {
    // The probe above is not blind: the hub's LISTEN connection shows, and close() ends it.
    const ctx: Context = await createContext(loadConfig({ ...env, LOG_LEVEL: 'warn' }), {
      storage: false,
    });
    try {
      await ctx.realtime.start();
      expect((await sessionsOnDatabase()).listening).toBe(1);
    } finally {
      await ctx.close();
    }
    expect(await sessionsAfterClose()).toEqual({ all: 0, listening: 0 });
  });

  it('refuses storage calls on a context opened without storage', async () => {
    await withAdminContext(async (ctx) => {
      await expect(ctx.storage.head({ container: 'c', key: 'k' })).rejects.toMatchObject({
        code: 'unavailable',
      });
    }, env);
  });
});
