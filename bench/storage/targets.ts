import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createStorageDriver,
  EmbeddedDriver,
  type StorageDriver,
} from '../../apps/server/src/storage/index';
import { aptInstall, freePort, processTree, run, startServer, stopServer } from './processes';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const STORE_PROCESS = path.join(
  REPO,
  'apps/server/src/storage/embedded/test-support/store-process.ts',
);
const SWIFT_SAIO = path.join(REPO, 'scripts/swift-saio.sh');

/** A storage server under measurement: where to PUT and GET, and which processes it is. */
export interface BenchTarget {
  readonly name: 'nginx' | 'embedded' | 'swift';
  putUrl(key: string): string;
  getUrl(key: string): string;
  /** Pids whose memory and CPU count as the server's (null: not ours to measure). */
  pids(): Promise<number[] | null>;
  stop(): Promise<void>;
}

const expires = () => Math.floor(Date.now() / 1000) + 3600;

function signedTarget(
  name: 'embedded' | 'swift',
  driver: StorageDriver,
  container: string,
  pids: () => Promise<number[] | null>,
  stop: () => Promise<void>,
): BenchTarget {
  return {
    name,
    putUrl: (key) => driver.signTempUrl({ method: 'PUT', container, key, expires: expires() }).url,
    getUrl: (key) => driver.signTempUrl({ method: 'GET', container, key, expires: expires() }).url,
    pids,
    stop: async () => {
      await driver.deletePrefix(container, '');
      await stop();
    },
  };
}

/** The embedded store alone in its own process (as the app serves it, minus the API). */
export async function startEmbedded(workDir: string): Promise<BenchTarget> {
  const root = path.join(workDir, 'embedded');
  const tempUrlKey = randomBytes(16).toString('hex');
  let port = 0;
  const child = await startStoreProcess(root, tempUrlKey, (p) => (port = p));
  const driver = new EmbeddedDriver({
    root,
    account: 'AUTH_filerunner',
    tempUrlKey,
    publicUrl: `http://127.0.0.1:${port}`,
    allowedOrigin: 'http://127.0.0.1:5173',
  });
  await driver.ensureContainer('bench');
  return signedTarget(
    'embedded',
    driver,
    'bench',
    () => processTree(child.pid!),
    () => stopServer(child),
  );
}

async function startStoreProcess(
  root: string,
  tempUrlKey: string,
  onPort: (port: number) => void,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', STORE_PROCESS, root, tempUrlKey], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString()));
    child.once('exit', (code) => reject(new Error(`store process exited with ${code}`)));
  });
  onPort((JSON.parse(line) as { port: number }).port);
  return child;
}

/**
 * Swift from SWIFT_AUTH_URL / SWIFT_USER / SWIFT_KEY, or else a single-node Swift started
 * with scripts/swift-saio.sh under the work directory (and stopped again afterwards).
 */
export async function startSwift(workDir: string): Promise<BenchTarget> {
  let env: Record<string, string> = {};
  let base: string | null = null;
  if (process.env.SWIFT_AUTH_URL) {
    env = { ...process.env } as Record<string, string>;
  } else {
    base = path.join(workDir, 'swift');
    // Ports of its own, so a developer's running Swift (default ports) is left alone.
    const ports: Record<string, string> = {};
    for (const name of ['PROXY', 'OBJECT', 'CONTAINER', 'ACCOUNT', 'MEMCACHED']) {
      ports[`SWIFT_SAIO_${name}_PORT`] = String(await freePort());
    }
    const { stdout } = await run(SWIFT_SAIO, ['start', base], {
      env: { ...process.env, ...ports },
      maxBuffer: 1 << 20,
    });
    for (const line of stdout.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  const driver = await createStorageDriver({
    driver: 'swift',
    authUrl: env.SWIFT_AUTH_URL!,
    user: env.SWIFT_USER!,
    key: env.SWIFT_KEY!,
    tempUrlKey: env.SWIFT_TEMPURL_KEY || randomBytes(16).toString('hex'),
    allowedOrigin: 'http://127.0.0.1:5173',
  });
  await driver.ensureContainer('bench');
  const swiftPids = async () => {
    if (!base) return null;
    const pids: number[] = [];
    for (const name of [
      'proxy-server',
      'object-server',
      'container-server',
      'account-server',
      'memcached',
    ]) {
      pids.push(Number(await readFile(path.join(base, 'run', `${name}.pid`), 'utf8')));
    }
    return pids;
  };
  const stop = async () => {
    if (base) await run(SWIFT_SAIO, ['stop', base]);
  };
  return signedTarget('swift', driver, 'bench', swiftPids, stop);
}

/** nginx (Debian nginx-extras, for its DAV module): PUT writes a file, GET serves it. */
export async function startNginx(workDir: string): Promise<BenchTarget> {
  const nginx = '/usr/sbin/nginx';
  const hasDav = async () =>
    existsSync(nginx) && (await run(nginx, ['-V'])).stderr.includes('http_dav_module');
  if (!(await hasDav())) await aptInstall(['nginx-extras']);
  const dir = path.join(workDir, 'nginx');
  await mkdir(path.join(dir, 'www'), { recursive: true });
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const config = `
worker_processes 2;
${process.getuid?.() === 0 ? 'user root root;' : ''}
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_max_body_size 0;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location / { dav_methods PUT; create_full_put_path on; }
  }
}`;
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child = await startServer(
    nginx,
    ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')],
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return response.status > 0;
    },
  );
  return {
    name: 'nginx',
    putUrl: (key) => `http://127.0.0.1:${port}/${key}`,
    getUrl: (key) => `http://127.0.0.1:${port}/${key}`,
    pids: () => processTree(child.pid!),
    stop: () => stopServer(child),
  };
}
