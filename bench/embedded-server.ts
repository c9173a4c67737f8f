/**
 * The server as the benches that measure the product itself run it: `npm start`'s entry in a
 * process of its own, on a free port of 127.0.0.1, on the embedded defaults in a data folder of
 * the bench's.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeArgs } from '../apps/server/src/node-flags';
import { freePort, startServer } from './storage/processes';

const REPO = fileURLToPath(new URL('../', import.meta.url));

export interface EmbeddedServer {
  /** Where it listens, and its PUBLIC_URL. */
  origin: string;
  /**
   * Starts it and resolves once /healthcheck answers. Again after a stop, it starts on the same
   * data folder, port and settings (a restart).
   */
  start(): Promise<ChildProcess>;
}

/**
 * A server on the embedded PostgreSQL and embedded store in `dataDir` (a DATABASE_URL in the
 * bench's own environment is not passed on), logging warnings only; `settings` add to its
 * environment or override these (SEED_DEMO, DEMO_PASSWORD, WEB_DIST, ...). Nothing runs until
 * `start`, so the bench can seed the folder first.
 */
export async function embeddedServer(
  dataDir: string,
  settings: Record<string, string> = {},
): Promise<EmbeddedServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    LOG_LEVEL: 'warn',
    ...settings,
  };
  delete env.DATABASE_URL;
  return {
    origin,
    start: () =>
      startServer(
        process.execPath,
        serverNodeArgs(),
        async () => (await fetch(`${origin}/healthcheck`)).ok,
        { cwd: path.join(REPO, 'apps/server'), env },
      ),
  };
}
