import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import type { Config } from './config';
import { PendingWork } from './http/pending-work';
import { logRedaction } from './http/log-redaction';
import { openDatabase, type Database, type DatabaseHandle } from './db/client';
import type { Holder } from './db/data-dir-lock';
import type { OutboxMail } from './db/schema';
import { ExpirySweeper } from './jobs/expiry-sweeper';
import { JobRunner } from './jobs/job-runner';
import { ObjectSweeper } from './jobs/object-sweeper';
import { enqueueMail, outboxBacklog, OutboxSender } from './jobs/outbox-sender';
import { Metrics } from './http/metrics';
import { stopWorkers } from './jobs/workers';
import { RateLimiter } from './modules/accounts/rate-limit';
import { SessionStore } from './modules/accounts/sessions';
import { activityReportHandler, REPORT_JOB } from './modules/activity/activity-report';
import { announceReceivedJob, PACKAGE_RECEIVED_JOB } from './modules/packages';
import { PackageTarCache } from './modules/downloads/package-tar-cache';
import { ApiKeyStore } from './modules/apikeys/apikeys.repository';
import { isSentPackageObject } from './modules/packages/packages.repository';
import { packageWriteAdmission } from './modules/packages/package-writes';
import { probeWriteAdmission } from './modules/preflight/preflight.service';
import { capturedTransport, smtpTransport, type MailTransport } from './notify/mailer';
import { capturedSmsTransport, twilioSmsTransport, type SmsTransport } from './notify/sms';
import { RealtimeHub } from './realtime/hub';
import {
  createStorageDriver,
  embeddedStoreRoot,
  loadEmbeddedTempUrlKey,
  StorageError,
  StoreFaults,
  FreeSpace,
  type EmbeddedStoreOptions,
  type StorageDriver,
} from './storage';

/** Queues mail in the caller's transaction and nudges the sender once it has committed. */
export interface Mailbox {
  /** Queues a mail in the caller's transaction; with `notBefore`, it leaves no earlier. */
  queue(db: Database, mail: OutboxMail, options?: { notBefore?: Date }): Promise<void>;
}

/** What the domain modules need, built once by `createContext` and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  sessions: SessionStore;
  apiKeys: ApiKeyStore;
  limiter: RateLimiter;
  mailbox: Mailbox;
  /** Sends text messages (PINs) while the caller waits; captured to files by default. */
  sms: SmsTransport;
  jobs: JobRunner;
  /** Where package bytes live; browsers reach it only through signed grants. */
  storage: StorageDriver;
  /**
   * Work that outlives its response (download records, reset mails); awaited before the database
   * closes.
   */
  pendingWork: PendingWork;
  /** The data folder's volume and the floor of free space kept for the embedded database. */
  freeSpace: FreeSpace;
  /** The node's figures for /metrics: modules count transfers and storage errors here. */
  metrics: Metrics;
  /**
   * The embedded store's injected faults (null with Swift): off unless STORE_FAULTS set them;
   * tests turn them on and off with `set`. They act on the store's own requests and on the
   * ranged GETs of downloads, never on the rest of the API.
   */
  storeFaults: StoreFaults | null;
  /** Laid-out tars of recently downloaded packages, shared by the ranged requests of a download. */
  packageTars: PackageTarCache;
}

/** The background workers: built with the context, idle until `startWorkers` runs them. */
export interface Workers {
  /** Sends the mail outbox. */
  outbox: OutboxSender;
  /** Runs durable jobs (reports); also `AppContext.jobs`, where modules queue them. */
  jobs: JobRunner;
  /** Tells the notification list about packages in their last day. */
  expirySweeper: ExpirySweeper;
  /** Deletes the objects of packages past their end or storage limit. */
  objectSweeper: ObjectSweeper;
}

/**
 * The app's core without its HTTP server: what `createContext` opened, for the HTTP app
 * (`buildHttpApp`), the workers (`startWorkers`) and the admin CLI alike.
 */
export interface Context extends AppContext {
  workers: Workers;
  /**
   * The realtime fan-out. Built idle: only the HTTP app starts it (its LISTEN connection), so
   * a context without HTTP holds no such connection.
   */
  realtime: RealtimeHub;
  /** What the HTTP app serves at /v1/ for the embedded store; null with Swift or no storage. */
  embeddedStore: EmbeddedStoreOptions | null;
  /**
   * Ends what the context opened, in order: work still under way, the realtime hub, the
   * workers (if still running), the mail transport, storage, then the database.
   */
  close(): Promise<void>;
}

export interface ContextOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Who opens an embedded data folder: the server (the default) or the admin CLI beside it. */
  holder?: Holder;
  /**
   * Whether to open object storage (the default). A command that never touches package bytes
   * passes false: with Swift that saves a login; `storage` then refuses every call.
   */
  storage?: boolean;
}

const EMBEDDED_ACCOUNT = 'AUTH_filerunner';

/**
 * Opens the app's core from a config: the database (migrated), mail and text-message
 * transports, storage, the idle realtime hub and the idle workers. Nothing listens on a port.
 */
export async function createContext(
  config: Config,
  options: ContextOptions = {},
): Promise<Context> {
  const log: FastifyBaseLogger = pino(
    // Secrets (signed URLs, download and mail tokens, SQL parameters) never reach a log line.
    { level: config.logLevel, ...logRedaction },
    options.logStream,
  );
  const database = await openDatabase({
    ...config,
    holder: options.holder,
    onLog: (message) => log.info(message),
    onIdleError: (error) => log.warn({ err: error }, 'idle database connection lost'),
  });
  try {
    return await openOnDatabase(config, options, log, database);
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function openOnDatabase(
  config: Config,
  options: ContextOptions,
  log: FastifyBaseLogger,
  database: DatabaseHandle,
): Promise<Context> {
  const { db } = database;
  const transport: MailTransport = config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom)
    : capturedTransport(path.join(config.dataDir, 'mail'), config.mailFrom, log);
  const outbox = new OutboxSender(db, transport, log);
  const mailbox: Mailbox = {
    async queue(tx, mail, options) {
      await enqueueMail(tx, mail, options?.notBefore);
      // The caller's transaction commits after this returns; a short delay lets it finish first.
      setTimeout(() => outbox.wake(), 50).unref();
    },
  };

  const freeSpace = new FreeSpace(config.dataDir, config.storageFreeFloor);
  const opened = options.storage === false ? null : await openStorage(config, db, freeSpace);
  const storage = opened?.driver ?? unopenedStorage(config.storage.driver);
  // Its figures are read at scrape time, once everything below exists.
  const metrics = new Metrics({
    pool: database.poolUse,
    outbox: () => outboxBacklog(db),
    realtimeConnections: () => realtime.size,
    storageSpace: () => freeSpace.measure(),
  });
  const jobs = new JobRunner(db, log);
  jobs.register(REPORT_JOB, activityReportHandler(config));
  jobs.register(PACKAGE_RECEIVED_JOB, announceReceivedJob);
  const workers: Workers = {
    outbox,
    jobs,
    expirySweeper: new ExpirySweeper(db, config, log),
    objectSweeper: new ObjectSweeper(db, storage, log, {
      intervalMs: config.objectSweepSeconds * 1000,
      onSwept: (swept) => metrics.swept(swept),
    }),
  };
  const sessions = new SessionStore(db, {
    ttlSeconds: config.sessionTtlSeconds,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  const realtime = new RealtimeHub({ databaseUrl: database.url, sessions, log });
  const pendingWork = new PendingWork();

  return {
    config,
    db,
    log,
    sessions,
    apiKeys: new ApiKeyStore(db),
    limiter: new RateLimiter(db, config.loginRateWindowSeconds),
    mailbox,
    sms: config.sms
      ? twilioSmsTransport(config.sms)
      : capturedSmsTransport(path.join(config.dataDir, 'sms'), log),
    jobs,
    storage,
    pendingWork,
    freeSpace,
    metrics,
    packageTars: new PackageTarCache(),
    workers,
    realtime,
    embeddedStore: opened?.embeddedStore ?? null,
    storeFaults: opened?.embeddedStore?.faults ?? null,
    async close() {
      await pendingWork.settled();
      await realtime.stop();
      await stopWorkers(workers);
      transport.close();
      await storage.close();
      await database.close();
    },
  };
}

async function openStorage(
  config: Config,
  db: Database,
  freeSpace: FreeSpace,
): Promise<{ driver: StorageDriver; embeddedStore: EmbeddedStoreOptions | null }> {
  const settings = config.storage;
  if (settings.driver === 'swift') {
    // Logs in to the cluster and sets the account's Temp-URL key.
    const driver = await createStorageDriver({
      driver: 'swift',
      authUrl: settings.authUrl,
      user: settings.user,
      key: settings.key,
      ...(settings.storageUrl ? { storageUrl: settings.storageUrl } : {}),
      ...(settings.token ? { token: settings.token } : {}),
      tempUrlKey: settings.tempUrlKey,
      alternativeUrls: settings.alternativeUrls,
      allowedOrigin: config.publicUrl,
    });
    return { driver, embeddedStore: null };
  }
  // The embedded store: this driver for the server's own operations, and the plugin the HTTP
  // app serves at /v1/ for browsers, as a Swift proxy would. Both sign with one key.
  const tempUrlKey = await loadEmbeddedTempUrlKey(config.dataDir, settings.tempUrlKey);
  const packageWrites = packageWriteAdmission(db);
  const embeddedStore: EmbeddedStoreOptions = {
    root: embeddedStoreRoot(config.dataDir),
    account: EMBEDDED_ACCOUNT,
    tempUrlKey,
    allowedOrigin: config.publicUrl,
    // A sent package's objects no longer change, though its upload grants are still valid.
    isSealed: (container, key) => isSentPackageObject(db, container, key),
    // Grants write only what the package declared (files, sizes), whatever they are asked for,
    // and a pre-flight probe's grant only the probe's few bytes.
    admitWrite: async (container, key) => probeWriteAdmission(key) ?? packageWrites(container, key),
    // The package's row is held (FOR SHARE) across the rename, and sending takes it FOR UPDATE:
    // a write is published before the package is sent, or not at all.
    publishUnlessSealed: (container, key, publish) =>
      db.transaction(async (tx) => {
        if (await isSentPackageObject(tx, container, key, { holdRow: true })) return false;
        await publish();
        return true;
      }),
    faults: new StoreFaults(settings.faults),
    freeSpace,
  };
  const driver = await createStorageDriver({
    driver: 'embedded',
    dataDir: config.dataDir,
    account: EMBEDDED_ACCOUNT,
    tempUrlKey,
    publicUrl: config.publicUrl,
    allowedOrigin: config.publicUrl,
  });
  return { driver, embeddedStore };
}

function refuse(): never {
  throw new StorageError('unavailable', 'storage was not opened for this context');
}

/** The storage of a context opened with `storage: false`: every call is refused. */
function unopenedStorage(kind: StorageDriver['kind']): StorageDriver {
  return {
    kind,
    get accountUrl(): string {
      return refuse();
    },
    alternativeAccountUrls: [],
    signTempUrl: refuse,
    signFormPost: refuse,
    ensureContainer: async () => refuse(),
    putManifest: async () => refuse(),
    readManifest: async () => refuse(),
    head: async () => refuse(),
    read: async () => refuse(),
    readBytes: async () => refuse(),
    listObjects: () => refuse(),
    deleteObject: async () => refuse(),
    deletePrefix: async () => refuse(),
    close: async () => undefined,
  };
}
