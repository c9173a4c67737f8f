import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { EmbeddedDriver } from '../embedded-driver';
import { embeddedStorePlugin } from '../embedded-store-plugin';
import { StoreFaults } from '../faults';

/** The origin the store allows by CORS. */
export const ORIGIN = 'http://127.0.0.1:5173';

/** One test's embedded store: its folder, the app serving it, and a driver on it. */
export interface StoreApp {
  readonly root: string;
  readonly app: FastifyInstance;
  readonly driver: EmbeddedDriver;
  readonly tempUrlKey: string;
  /** A fresh StoreFaults, the store's own when `options.faults` asked for it. */
  readonly faults: StoreFaults;
}

/**
 * For each test of the calling suite: a fresh folder, a Fastify app serving the embedded store
 * in it beside the app's own JSON API (`POST /api/echo` echoes its body: the store must not
 * inherit its body parsing), listening on a free port, and a driver on it with the container
 * `c` made (`containerOrigins` its extra CORS origins). `ready` gets each test's store; the app
 * is closed and the folder removed after the test.
 */
export function useStoreApp(
  ready: (store: StoreApp) => unknown,
  options: { dirPrefix: string; faults?: boolean; containerOrigins?: string[] },
): void {
  let store: StoreApp | undefined;
  const tempUrlKey = randomBytes(16).toString('hex');

  beforeEach(async () => {
    const root = await mkdtemp(path.join(tmpdir(), options.dirPrefix));
    const faults = new StoreFaults();
    const app = Fastify();
    app.post('/api/echo', async (request) => request.body);
    await app.register(embeddedStorePlugin, {
      root,
      account: 'AUTH_filerunner',
      tempUrlKey,
      allowedOrigin: ORIGIN,
      ...(options.faults ? { faults } : {}),
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const driver = new EmbeddedDriver({
      root,
      account: 'AUTH_filerunner',
      tempUrlKey,
      publicUrl: address,
      allowedOrigin: ORIGIN,
    });
    await driver.ensureContainer(
      'c',
      options.containerOrigins ? { allowedOrigins: options.containerOrigins } : undefined,
    );
    store = { root, app, driver, tempUrlKey, faults };
    await ready(store);
  });

  afterEach(async () => {
    if (!store) return;
    await store.app.close();
    await rm(store.root, { recursive: true, force: true });
    store = undefined;
  });
}
