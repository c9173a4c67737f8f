import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import type { Config } from './config';
import type { AppContext, Mailbox } from './context';
import { databaseAnswers, openDatabase } from './db/client';
import type { Holder } from './db/data-dir-lock';
import { installAuth } from './http/auth';
import { installCompression } from './http/compression';
import { PendingWork } from './http/pending-work';
import { ApiError } from './http/errors';
import { apiDocs } from './http/api-docs';
import { installErrorHandler } from './http/error-handler';
import { logRedaction } from './http/log-redaction';
import type { RegisteredRoute } from './http/routes';
import { serveWebApp } from './http/web-app';
import { ExpirySweeper } from './jobs/expiry-sweeper';
import { ObjectSweeper } from './jobs/object-sweeper';
import { JobRunner } from './jobs/job-runner';
import { enqueueMail, OutboxSender } from './jobs/outbox-sender';
import { activityReportHandler, REPORT_JOB } from './modules/activity/activity-report';
import { activityRoutes } from './modules/activity/activity.routes';
import { brandingRoutes } from './modules/branding/branding.routes';
import { contractGroupsRoutes } from './modules/contracts/groups.routes';
import { contractUsersRoutes } from './modules/contracts/users.routes';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { RateLimiter } from './modules/accounts/rate-limit';
import { SessionStore } from './modules/accounts/sessions';
import { ApiKeyStore } from './modules/apikeys/apikeys.repository';
import { apiKeysRoutes } from './modules/apikeys/apikeys.routes';
import { contractsRoutes } from './modules/contracts/contracts.routes';
import { downloadsRoutes } from './modules/downloads/downloads.routes';
import { filesystemRoutes } from './modules/filesystem/filesystem.routes';
import { receivingRoutes } from './modules/inbox/inbox.routes';
import { isSentPackageObject } from './modules/packages/packages.repository';
import { packagesRoutes } from './modules/packages/packages.routes';
import { RealtimeHub } from './realtime/hub';
import { realtimeRoutes } from './realtime/realtime.routes';
import { pinRoutes } from './modules/pin/pin.routes';
import { capturedTransport, smtpTransport } from './notify/mailer';
import { capturedSmsTransport, twilioSmsTransport } from './notify/sms';
import {
  createStorageDriver,
  embeddedStorePlugin,
  embeddedStoreRoot,
  loadEmbeddedTempUrlKey,
  StoreFaults,
} from './storage';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  outbox: OutboxSender;
  jobs: JobRunner;
  expirySweeper: ExpirySweeper;
  /** Deletes the objects of packages past their end or storage limit. */
  objectSweeper: ObjectSweeper;
  /** Every route registered under `/api`, as the OpenAPI test compares them with the table. */
  apiRoutes: RegisteredRoute[];
  /**
   * The embedded store's injected faults (null with Swift): off unless STORE_FAULTS set them;
   * tests turn them on and off with `set`. No HTTP route reaches them.
   */
  storeFaults: StoreFaults | null;
}

/** How long a stopping server waits for responses under way before it cuts them. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface BuildOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Who opens an embedded data folder: the server (the default) or the admin CLI beside it. */
  holder?: Holder;
}

/** Builds the whole server from a config; `main.ts` listens, tests call `inject` or listen. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secrets (signed URLs, download and mail tokens, SQL parameters) never reach a log line.
      ...logRedaction,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Field names match the spec's paths exactly, trailing slash included.
    routerOptions: { ignoreTrailingSlash: false },
    // A hop count means: trust that many proxies in front of us (Fastify's types lack the number form).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  });
  const database = await openDatabase({
    ...config,
    holder: options.holder,
    onLog: (message) => app.log.info(message),
    onIdleError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
  });
  const { db } = database;

  const transport = config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom)
    : capturedTransport(path.join(config.dataDir, 'mail'), config.mailFrom, app.log);
  const outbox = new OutboxSender(db, transport, app.log);
  const mailbox: Mailbox = {
    async queue(tx, mail) {
      await enqueueMail(tx, mail);
      // The caller's transaction commits after this returns; a short delay lets it finish first.
      setTimeout(() => outbox.wake(), 50).unref();
    },
  };
  const storeFaults =
    config.storage.driver === 'embedded' ? new StoreFaults(config.storage.faults) : null;
  const storage =
    config.storage.driver === 'embedded'
      ? await openEmbeddedStore(
          app,
          config,
          config.storage.tempUrlKey,
          (container, key) => isSentPackageObject(db, container, key),
          storeFaults!,
        )
      : await openSwift(config, config.storage);
  const jobs = new JobRunner(db, app.log);
  const expirySweeper = new ExpirySweeper(db, config, app.log);
  const objectSweeper = new ObjectSweeper(db, storage, app.log);
  jobs.register(REPORT_JOB, activityReportHandler(config));
  const ctx: AppContext = {
    config,
    db,
    log: app.log,
    sessions: new SessionStore(db, {
      ttlSeconds: config.sessionTtlSeconds,
      maxAgeSeconds: config.sessionMaxAgeSeconds,
    }),
    apiKeys: new ApiKeyStore(db),
    limiter: new RateLimiter(db, config.loginRateWindowSeconds),
    mailbox,
    sms: config.sms
      ? twilioSmsTransport(config.sms)
      : capturedSmsTransport(path.join(config.dataDir, 'sms'), app.log),
    jobs,
    storage,
    pendingWork: new PendingWork(),
  };

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        // The transfer engine hashes files (xxh128) with WebAssembly in a worker.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        // The transfer engine moves bytes straight to and from storage, which with Swift is on
        // other hosts than the app.
        'connect-src': [
          "'self'",
          ...new Set(
            [storage.accountUrl, ...storage.alternativeAccountUrls].map(
              (url) => new URL(url).origin,
            ),
          ),
        ],
        // MUI (emotion) injects style elements at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Over plain HTTP (the embedded default) upgrading requests would break every fetch.
        'upgrade-insecure-requests': config.secureCookies ? [] : null,
      },
    },
    hsts: config.secureCookies,
  });
  await app.register(cookie);
  installErrorHandler(app);

  const apiRoutes: RegisteredRoute[] = [];
  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) apiRoutes.push({ method, path: route.url });
      });
      // Handlers check `file.truncated` and answer with the spec's field error instead of a bare 413.
      await api.register(multipart, { throwFileSizeLimit: false });
      installCompression(api);
      installAuth(api, { sessions: ctx.sessions, apiKeys: ctx.apiKeys });
      await api.register(accountsRoutes, { ctx });
      await api.register(apiKeysRoutes, { apiKeys: ctx.apiKeys });
      await api.register(contractsRoutes, { ctx });
      await api.register(filesystemRoutes);
      await api.register(contractUsersRoutes, { ctx });
      await api.register(contractGroupsRoutes, { ctx });
      await api.register(activityRoutes, { ctx });
      await api.register(packagesRoutes, { ctx });
      await api.register(brandingRoutes, { ctx });
      await api.register(downloadsRoutes, { ctx });
      await api.register(receivingRoutes, { ctx });
      await api.register(pinRoutes, { ctx });
      api.setNotFoundHandler(() => {
        throw ApiError.notFound();
      });
    },
    { prefix: '/api' },
  );

  // Outside the `/api` scope: the socket is not a call of the route table.
  const realtime = new RealtimeHub({
    databaseUrl: database.url,
    sessions: ctx.sessions,
    log: app.log,
  });
  await realtime.start();
  await app.register(realtimeRoutes, {
    hub: realtime,
    sessions: ctx.sessions,
    publicUrl: config.publicUrl,
  });

  await apiDocs(app);

  app.get('/healthcheck', async (_request, reply) => {
    const ok = await databaseAnswers(db);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'database unavailable' });
  });

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
    // Every connection has closed by now (Fastify closes the server first); what they started
    // still needs the database.
    await ctx.pendingWork.settled();
    await realtime.stop();
    await expirySweeper.stop();
    await objectSweeper.stop();
    await jobs.stop();
    await outbox.stop();
    await storage.close();
    await database.close();
  });
  return { app, ctx, outbox, jobs, expirySweeper, objectSweeper, apiRoutes, storeFaults };
}

const EMBEDDED_ACCOUNT = 'AUTH_filerunner';

/**
 * The embedded store: its driver for the server's own operations, and the plugin that answers
 * browsers at /v1/... beside the API, as a Swift proxy would. Both sign with one key.
 */
async function openEmbeddedStore(
  app: FastifyInstance,
  config: Config,
  keyOverride: string | undefined,
  isSealed: (container: string, key: string) => Promise<boolean>,
  faults: StoreFaults,
) {
  const tempUrlKey = await loadEmbeddedTempUrlKey(config.dataDir, keyOverride);
  await app.register(embeddedStorePlugin, {
    root: embeddedStoreRoot(config.dataDir),
    account: EMBEDDED_ACCOUNT,
    tempUrlKey,
    allowedOrigin: config.publicUrl,
    // A sent package's objects no longer change, though its upload grants are still valid.
    isSealed,
    faults,
  });
  return createStorageDriver({
    driver: 'embedded',
    dataDir: config.dataDir,
    account: EMBEDDED_ACCOUNT,
    tempUrlKey,
    publicUrl: config.publicUrl,
    allowedOrigin: config.publicUrl,
  });
}

/** A Swift cluster, logged in to, with the account's Temp-URL key set. */
function openSwift(config: Config, swift: Extract<Config['storage'], { driver: 'swift' }>) {
  return createStorageDriver({
    driver: 'swift',
    authUrl: swift.authUrl,
    user: swift.user,
    key: swift.key,
    ...(swift.storageUrl ? { storageUrl: swift.storageUrl } : {}),
    ...(swift.token ? { token: swift.token } : {}),
    tempUrlKey: swift.tempUrlKey,
    alternativeUrls: swift.alternativeUrls,
    allowedOrigin: config.publicUrl,
  });
}
