import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { chromium, type Browser } from 'playwright-core';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database';

/** The repository root; the server runs from here as `npm start` runs it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(repoRoot, 'apps/server/src/main.ts');
const adminEntry = path.join(repoRoot, 'apps/server/src/cli/admin.ts');
const CHROMIUM = '/usr/bin/chromium';

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
  /** Drops the site's scratch database (PostgreSQL leg); nothing to do on PGlite. */
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
  /**
   * Stops the server and removes the site's data, unless `keepData` asks to keep it so the
   * operator CLI can run on it (PGlite allows one process at a time) and a server start again.
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts the server on the site and waits until /healthcheck answers. */
export async function startServer(site: Site): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: site.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  const deadline = Date.now() + 90_000;
  for (;;) {
    const early = await Promise.race([exited, delay(250).then(() => undefined)]);
    if (early !== undefined) {
      throw new Error(`the server exited (${early}) before answering:\n${output()}`);
    }
    if (await healthy(site.url)) break;
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      throw new Error(`the server did not answer /healthcheck within 90 s:\n${output()}`);
    }
  }

  return {
    url: site.url,
    pid,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        process.kill(pid, 'SIGTERM');
        const stopped = await Promise.race([
          exited.then(() => true),
          delay(15_000).then(() => false),
        ]);
        if (!stopped) process.kill(pid, 'SIGKILL');
      }
      if (keepData) return;
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
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface CapturedMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  /** Every http(s) address in the text. */
  links: string[];
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** The mails the server captured in DATA_DIR/mail, oldest first. */
export async function readMails(site: Site): Promise<CapturedMail[]> {
  const dir = path.join(site.dataDir, 'mail');
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => parseMail(file, await readFile(path.join(dir, file)))),
  );
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
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = (await readMails(site)).slice(since).reverse();
    for (const mail of mails) {
      const link = mail.to.includes(to) ? mail.links.find((l) => l.includes(linkPart)) : undefined;
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with a ${linkPart} link`);
    await delay(200);
  }
}

/** A captured .eml file, read with mailparser. */
export async function parseMail(file: string, raw: Buffer): Promise<CapturedMail> {
  const mail = await simpleParser(raw);
  const text = mail.text ?? '';
  const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
  return {
    file,
    to,
    subject: mail.subject ?? '',
    text,
    links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? '',
      contentType: a.contentType,
      content: a.content,
    })),
  };
}

/** Waits for a captured mail, among those after the first `since`, that `matches` accepts. */
export async function waitForMail(
  site: Site,
  matches: (mail: CapturedMail) => boolean,
  since = 0,
): Promise<CapturedMail> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = (await readMails(site)).slice(since).find(matches);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error('no captured mail matched');
    await delay(200);
  }
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
