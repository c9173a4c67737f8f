import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config';
import { createContext, type Context, type ContextOptions } from './context';
import { apiPlugin } from './api';
import { apiDocs } from './http/api-docs';
import { installErrorHandler } from './http/error-handler';
import { serveHealth } from './http/health';
import { recordPublicUrl } from './db/server-settings';
import type { RegisteredRoute } from './http/routes';
import { installSecurityHeaders } from './http/security-headers';
import { serveWebApp } from './http/web-app';
import type { ExpirySweeper } from './jobs/expiry-sweeper';
import type { JobRunner } from './jobs/job-runner';
import type { ObjectSweeper } from './jobs/object-sweeper';
import type { OutboxSender } from './jobs/outbox-sender';
import { countRequests, serveMetrics } from './http/metrics';
import { NodeReadiness, serveReadiness } from './http/readiness';
import { realtimeRoutes } from './realtime/realtime.routes';
import { embeddedStorePlugin, SANDBOXED_BYTES_HEADERS, type StoreFaults } from './storage';

export interface HttpApp {
  app: FastifyInstance;
  /** Every route registered under `/api`, as the OpenAPI test compares them with the table. */
  apiRoutes: RegisteredRoute[];
  /** What /readyz answers: ready once listening, draining once told the node stops. */
  readiness: NodeReadiness;
}

export interface BuiltApp extends HttpApp {
  ctx: Context;
  outbox: OutboxSender;
  jobs: JobRunner;
  expirySweeper: ExpirySweeper;
  /** Deletes the objects of packages past their end or storage limit. */
  objectSweeper: ObjectSweeper;
  /**
   * The embedded store's injected faults (null with Swift): off unless STORE_FAULTS set them;
   * tests turn them on and off with `set`. No HTTP route reaches them.
   */
  storeFaults: StoreFaults | null;
}

/** How long a stopping server waits for responses under way before it cuts them. */
const SHUTDOWN_GRACE_MS = 5_000;

export type BuildOptions = Omit<ContextOptions, 'storage'>;

/**
 * Opens a context and builds the HTTP app on it, which closes the context when it closes; for
 * tests (`inject` or listen) and benches. No worker runs: start them with `startWorkers(ctx)`.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const ctx = await createContext(config, options);
  let built: HttpApp;
  try {
    built = await buildHttpApp(ctx);
  } catch (error) {
    await ctx.close();
    throw error;
  }
  built.app.addHook('onClose', () => ctx.close());
  return { ...built, ctx, ...ctx.workers, storeFaults: ctx.storeFaults };
}

/**
 * The HTTP server on a context: the embedded store at /v1/, security headers, cookies, the
 * `/api` scope, the realtime socket (whose hub it starts), the API docs, /healthcheck and the
 * web app. Closing it ends the connections but not the context: its opener closes that.
 */
export async function buildHttpApp(ctx: Context): Promise<HttpApp> {
  const { config } = ctx;
  const app = Fastify({
    // The context's logger, whose options keep secrets out of every line.
    loggerInstance: ctx.log,
    // Field names match the spec's paths exactly, trailing slash included.
    routerOptions: { ignoreTrailingSlash: false },
    // A hop count means: trust that many proxies in front of us (Fastify's types lack the number form).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // An address the router cannot decode (`/v1/…/%zz`) reaches no route and no hook, and its
    // 400 repeats the address: it is sandboxed like the store's own answers.
    frameworkErrors: (error, _request, reply) => {
      const statusCode = error.statusCode ?? 400;
      // Fastify types this reply by every route's schema; it is a plain one.
      return (reply as FastifyReply)
        .code(statusCode)
        .headers(SANDBOXED_BYTES_HEADERS)
        .send({ error: 'Bad Request', code: error.code, message: error.message, statusCode });
    },
  });

  // First, so that every route registered below (each in its own scope) inherits its hooks.
  countRequests(app, ctx.metrics);

  // The embedded store answers browsers at /v1/... beside the API, as a Swift proxy would.
  if (ctx.embeddedStore) await app.register(embeddedStorePlugin, ctx.embeddedStore);
  await installSecurityHeaders(app, config, ctx.storage);
  await app.register(cookie);
  installErrorHandler(app, ctx.metrics);

  const apiRoutes: RegisteredRoute[] = [];
  await app.register(apiPlugin, { prefix: '/api', ctx, routes: apiRoutes });

  // Outside the `/api` scope: the socket is not a call of the route table.
  await ctx.realtime.start();
  await app.register(realtimeRoutes, {
    hub: ctx.realtime,
    sessions: ctx.sessions,
    publicUrl: config.publicUrl,
  });

  await apiDocs(app);

  const readiness = new NodeReadiness(ctx);
  app.addHook('onListen', async () => readiness.markReady());
  serveReadiness(app, readiness);
  serveMetrics(app, ctx.metrics, config.metricsToken);

  serveHealth(app, ctx, config.metricsToken);
  // The admin CLI mails links to the origin the server is reached at, which only it knows. The
  // default (localhost) is no such origin: a dev node on it must not redirect every mailed link.
  if (config.publicUrlSet) await recordPublicUrl(ctx.db, config.publicUrl, ctx.log);

  serveWebApp(app, config.webDist);

  // A download can stream for hours. A stopping server lets responses run for a few seconds,
  // then cuts the rest (clients resume with Range), so their records are written before the
  // database closes and a deploy is never held up by one slow client.
  let cutConnections: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    cutConnections = setTimeout(() => {
      app.log.warn('closing: cutting the connections still open');
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(cutConnections);
  });
  return { app, apiRoutes, readiness };
}
