import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, vi } from 'vitest';
import { api, createRouteClient, type RouteArgs, type RouteClient } from '@filerunner/protocol';
import { FetchHttpClient, signedInClient } from '@filerunner/transfer/node';
import { stopEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database';
import { serverNodeArgs } from '../apps/server/src/node-flags';
import {
  readMailFolder,
  waitForMailIn,
  type CapturedMail,
} from '../apps/server/test/captured-mail';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';

export type { CapturedMail };

/** The repository root; the server runs from here as `npm start` runs it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adminEntry = path.join(repoRoot, 'apps/server/src/cli/admin.ts');

/** The password of the seeded demo users in these tests; it meets the password rules. */
export const DEMO_PASSWORD = 'Demo-Pass1!';

/** The server serves the built web app; the e2e script builds it before the tests run. */
export function assertWebAppBuilt(): void {
  // WEB_DIST (absolute) points the server at another build, e.g. one made beside a change.
  const webDist = process.env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist');
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(
      'apps/web/dist is missing: build the web app first with `npm run build -w apps/web` ' +
        '(`npm test -w e2e` does it for you).',
    );
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}

/** A fresh data directory and the port and public URL a server will use with it. */
export interface Site {
  port: number;
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Drops the site's scratch database (PostgreSQL leg); on the embedded leg it goes with the data folder. */
  dropDatabase: () => Promise<void>;
}

export async function prepareSite(env: Record<string, string> = {}): Promise<Site> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'filerunner-e2e-'));
  // On the PostgreSQL leg every site gets a database of its own, empty, so the demo seed runs.
  const database = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL)
    : undefined;
  return {
    port,
    url,
    dataDir,
    dropDatabase: database?.drop ?? (async () => undefined),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      SEED_DEMO: 'true',
      DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
  };
}

/** Runs the operator CLI (`npm run admin -- ...`) against the site's data directory. */
export async function runAdmin(site: Site, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', adminEntry, ...args], {
    cwd: repoRoot,
    env: site.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`admin ${args.join(' ')} failed (${code}):\n${output()}`);
  return output();
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Stops the server and removes the site's data. */
  stop(): Promise<void>;
}

/** Starts the server on the site and waits until /healthcheck answers. */
export async function startServer(site: Site): Promise<RunningServer> {
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: repoRoot,
    env: site.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  // Polls until the server answers or its process ends, whichever comes first.
  const answered = await vi
    .waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) return false;
        if (!(await healthy(site.url))) throw new Error('not answering yet');
        return true;
      },
      { timeout: 90_000, interval: 250 },
    )
    .catch(() => {
      process.kill(pid, 'SIGKILL');
      throw new Error(`the server did not answer /healthcheck within 90 s:\n${output()}`);
    });
  if (!answered) {
    const code = child.exitCode ?? child.signalCode;
    throw new Error(`the server exited (${code}) before answering:\n${output()}`);
  }

  return {
    url: site.url,
    pid,
    async stop() {
      if (child.exitCode === null) {
        process.kill(pid, 'SIGTERM');
        const stopped = await Promise.race([
          exited.then(() => true),
          delay(15_000).then(() => false),
        ]);
        if (!stopped) process.kill(pid, 'SIGKILL');
      }
      // A server killed outright leaves its embedded database running; it must not outlive its files.
      await stopEmbeddedPostgres(site.dataDir);
      await rm(site.dataDir, { recursive: true, force: true });
      await site.dropDatabase();
    },
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthcheck`);
    return response.ok;
  } catch {
    return false;
  }
}

/** Debian's Chromium, driven by playwright-core. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error("Debian's chromium is missing: run apt-get install -y chromium");
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
}

/** A browser test file's product: a fresh site, its server and Debian's Chromium. */
export interface Product {
  site: Site;
  server: RunningServer;
  browser: Browser;
}

/**
 * Checks the web app is built, then starts the product on a fresh site (`env` as `prepareSite`
 * takes it) and a Chromium: what each browser test file does before its tests. A server already
 * running when the browser fails to launch is stopped again.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  assertWebAppBuilt();
  const site = await prepareSite(env);
  const server = await startServer(site);
  try {
    return { site, server, browser: await launchBrowser() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Stops what `startProduct` started; nothing is there when it failed. */
export async function stopProduct(product: Partial<Product>): Promise<void> {
  await product.browser?.close();
  await product.server?.stop();
}

/**
 * The product of the test file that calls this: registers a `beforeAll` that starts it
 * (`startProduct`, with `env`) and an `afterAll` that stops it. The answer is filled in when
 * `beforeAll` has run, so a test (or a later hook) reads `product.server`, `product.browser` and
 * `product.site` from it.
 */
export function productOfFile(env: Record<string, string> = {}): Product {
  const product = {} as Product;
  beforeAll(async () => {
    Object.assign(product, await startProduct(env));
  });
  afterAll(() => stopProduct(product));
  return product;
}

/**
 * The API as a signed-in person calls it, through the product's route client (the session
 * cookie, the client-version header, the API's retries), for setting up what a test needs
 * without clicking through screens that other tests cover. A failed call throws its `ApiError`.
 */
export type ApiSession = RouteClient;

/** The API of the site at `baseUrl`, with no one signed in. */
export function apiClient(baseUrl: string): RouteClient {
  return createRouteClient({
    http: new FetchHttpClient(),
    baseUrl: `${baseUrl}/api`,
    clientVersion: 'e2e',
  });
}

/** The arguments of a settings change of the demo contract, as its admin's Settings screen sends it. */
export function demoSettings(
  body: RouteArgs<typeof api.contracts.updateSettings>['body'],
): RouteArgs<typeof api.contracts.updateSettings> {
  return { params: { slug: 'demo' }, body };
}

/** Changes the demo contract's settings as its admin does, through the API. */
export async function changeDemoSettings(
  baseUrl: string,
  body: RouteArgs<typeof api.contracts.updateSettings>['body'],
): Promise<void> {
  const admin = await apiLogin(baseUrl, 'admin@example.com', DEMO_PASSWORD);
  await admin.call(api.contracts.updateSettings, demoSettings(body));
}

/** Logs in through the API and answers the person's route client. */
export function apiLogin(baseUrl: string, email: string, password: string) {
  return signedInClient(baseUrl, email, password, 'e2e');
}

/** A person a project admin added to a contract; `password` is theirs once activated. */
export interface Member {
  id: number;
  email: string;
  password: string;
  /** First and last name as given, e.g. 'Nora1 Tester'. */
  name: string;
}

let memberCount = 0;

/**
 * Adds a person to the contract `slug` as its admin `admin` would on the Users screen, and
 * returns them with the activation link from the mail. Each call makes a new person
 * (`<prefix><n>@example.test`), so tests never share one.
 */
export async function inviteMember(
  site: Site,
  admin: ApiSession,
  slug: string,
  options: { prefix?: string; projectAdmin?: boolean; send?: boolean; groups?: number[] } = {},
): Promise<Member & { link: string }> {
  const n = ++memberCount;
  const first = `${options.prefix ?? 'member'}${n}`;
  const email = `${first}@example.test`;
  const name = `${first[0]!.toUpperCase()}${first.slice(1)} Tester`;
  const mailsBefore = (await readMails(site)).length;
  const added = await admin.call(api.users.add, {
    params: { slug },
    body: {
      first_name: name.split(' ')[0]!,
      last_name: 'Tester',
      email,
      project_admin: options.projectAdmin ?? false,
      send: options.send ?? false,
      groups: options.groups ?? [],
    },
  });
  const link = await waitForMailLink(site, email, '/activate/', mailsBefore);
  return { id: added.id, email, name, password: `Member-Pass${n}!`, link };
}

/** Activates an account from its mailed link through the API, as the activation page would. */
export async function activate(link: string, name: string, password: string): Promise<void> {
  const [uid, token] = new URL(link).pathname.split('/').slice(2);
  await apiClient(new URL(link).origin).call(api.accounts.activate, {
    body: { uid: uid!, token: token!, name, password, password_confirm: password },
  });
}

/** inviteMember, then the activation: a person who can log in with `password`. */
export async function addMember(
  site: Site,
  admin: ApiSession,
  slug: string,
  options: Parameters<typeof inviteMember>[3] = {},
): Promise<Member> {
  const { link, ...member } = await inviteMember(site, admin, slug, options);
  await activate(link, member.name, member.password);
  return member;
}

const mailDir = (site: Site) => path.join(site.dataDir, 'mail');

/** The mails the server captured in DATA_DIR/mail, oldest first. */
export function readMails(site: Site): Promise<CapturedMail[]> {
  return readMailFolder(mailDir(site));
}

/**
 * Waits for a captured mail to `to` whose text has a link containing `linkPart`, among the mails
 * after the first `since`; returns the link of the newest such mail.
 */
export async function waitForMailLink(
  site: Site,
  to: string,
  linkPart: string,
  since = 0,
): Promise<string> {
  const hasLink = (mail: CapturedMail) => mail.links.find((l) => l.includes(linkPart));
  const mail = await waitForMailIn(mailDir(site), (m) => m.to.includes(to) && !!hasLink(m), {
    since,
    newest: true,
    timeoutMs: 20_000,
  }).catch(() => {
    throw new Error(`no mail to ${to} with a ${linkPart} link`);
  });
  return hasLink(mail)!;
}

/** Waits for a captured mail, among those after the first `since`, that `matches` accepts. */
export function waitForMail(
  site: Site,
  matches: (mail: CapturedMail) => boolean,
  since = 0,
): Promise<CapturedMail> {
  return waitForMailIn(mailDir(site), matches, { since, timeoutMs: 20_000 });
}

function collect(child: ChildProcess): () => string {
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
