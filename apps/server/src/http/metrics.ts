import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Which way bytes moved: into storage from a sender, or out of it to a recipient. */
export type Direction = 'upload' | 'download';

/** What the metrics read when Prometheus scrapes them (asked then, never kept up to date). */
export interface MetricSources {
  /** The database pool: connections open, idle, and queries waiting for one. */
  pool(): { total: number; idle: number; waiting: number };
  /** Mail not yet sent, and when the oldest of it was queued. */
  outbox(): Promise<{ pending: number; oldest: Date | null }>;
  /** Realtime sockets open on this node. */
  realtimeConnections(): number;
  /** The data folder's volume: bytes free, and the floor kept free for the database. */
  storageSpace(): Promise<{ freeBytes: number; floorBytes: number }>;
}

/**
 * The node's figures in Prometheus' text format: one registry per app (tests build many apps in
 * one process, and a node's figures are its own: Prometheus sums them across the cluster).
 * Modules count through the methods below, so metric names live in this file only.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration = new Histogram({
    name: 'filerunner_http_request_duration_seconds',
    help: 'API, storage and page requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    // Calls answer in milliseconds; storage requests and downloads run for minutes.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120, 600],
    registers: [this.registry],
  });
  private readonly bytes = {
    upload: this.counter('filerunner_uploaded_bytes_total', 'Bytes of files reported stored'),
    download: this.counter('filerunner_downloaded_bytes_total', 'Bytes of downloads sent'),
  };
  private readonly files = {
    upload: this.counter('filerunner_uploaded_files_total', 'Files reported stored'),
    download: this.counter(
      'filerunner_downloaded_files_total',
      'Files in downloads sent to their end (a whole package counts each of its files)',
    ),
  };
  private readonly inProgress = new Gauge({
    name: 'filerunner_transfers_in_progress',
    help: 'Request bodies moving through this node: storage writes (upload), downloads',
    labelNames: ['direction'] as const,
    registers: [this.registry],
  });
  private readonly packagesSwept = this.counter(
    'filerunner_packages_swept_total',
    "Packages whose objects this node's sweeper deleted (each package is swept by one node)",
  );
  private readonly storageErrors = new Counter({
    name: 'filerunner_storage_errors_total',
    help: 'Storage operations that failed, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    this.inProgress.set({ direction: 'upload' }, 0);
    this.inProgress.set({ direction: 'download' }, 0);
    const registers = [this.registry];
    new Gauge({
      name: 'filerunner_db_pool_connections',
      help: 'Database pool connections by state: in use, idle',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = sources.pool();
        this.set({ state: 'in_use' }, pool.total - pool.idle);
        this.set({ state: 'idle' }, pool.idle);
      },
    });
    new Gauge({
      name: 'filerunner_db_pool_waiting',
      help: 'Queries waiting for a database connection',
      registers,
      collect() {
        this.set(sources.pool().waiting);
      },
    });
    new Gauge({
      name: 'filerunner_outbox_pending',
      help: 'Mail waiting to be sent',
      registers,
      async collect() {
        this.set((await sources.outbox()).pending);
      },
    });
    new Gauge({
      name: 'filerunner_outbox_oldest_age_seconds',
      help: 'How long the oldest unsent mail has waited (0 when none waits)',
      registers,
      async collect() {
        const { oldest } = await sources.outbox();
        this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
      },
    });
    new Gauge({
      name: 'filerunner_storage_free_bytes',
      help: "Bytes free on the data folder's volume",
      registers,
      async collect() {
        this.set((await sources.storageSpace()).freeBytes);
      },
    });
    new Gauge({
      name: 'filerunner_storage_free_floor_bytes',
      help: 'Bytes the volume keeps free for the database: new files are refused under it',
      registers,
      async collect() {
        this.set((await sources.storageSpace()).floorBytes);
      },
    });
    new Gauge({
      name: 'filerunner_realtime_connections',
      help: 'Realtime sockets open on this node',
      registers,
      collect() {
        this.set(sources.realtimeConnections());
      },
    });
  }

  /** A request answered: `route` is the route's pattern, never the filled-in path (it holds tokens). */
  requestAnswered(route: string, method: string, status: number, seconds: number): void {
    this.requestDuration.observe({ route, method, status: String(status) }, seconds);
  }

  /** Files moved one way, with their bytes. */
  moved(direction: Direction, files: number, bytes: number): void {
    if (files > 0) this.files[direction].inc(files);
    if (bytes > 0) this.bytes[direction].inc(bytes);
  }

  /** A body started moving through this node; call the answer when it stops, however it stops. */
  transferStarted(direction: Direction): () => void {
    this.inProgress.inc({ direction });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inProgress.dec({ direction });
    };
  }

  /** Packages whose objects a sweep deleted. */
  swept(packages: number): void {
    this.packagesSwept.inc(packages);
  }

  storageFailed(kind: string): void {
    this.storageErrors.inc({ kind });
  }

  private counter(name: string, help: string): Counter {
    return new Counter({ name, help, registers: [this.registry] });
  }
}

/**
 * Times every answer by its route's pattern (never the filled-in path: paths carry download
 * tokens and link keys), and counts the embedded store's writes under way as uploads.
 */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  const writes = new WeakMap<FastifyRequest, () => void>();
  app.addHook('onRequest', async (request) => {
    const storageWrite = request.method === 'PUT' || request.method === 'POST';
    if (storageWrite && request.routeOptions.url?.startsWith('/v1/')) {
      writes.set(request, metrics.transferStarted('upload'));
    }
  });
  app.addHook('onRequestAbort', async (request) => writes.get(request)?.());
  app.addHook('onResponse', async (request, reply) => {
    writes.get(request)?.();
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestAnswered(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * GET /metrics, only when the operator set a token, and only to `Authorization: Bearer <token>`:
 * the figures say how busy the service is and are nobody else's business. Without a token the
 * route does not exist (404), as if the product had none.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  if (token === null) return;
  app.get('/metrics', async (request, reply) => {
    if (!bearsMetricsToken(request, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ detail: 'A valid metrics token is needed.' });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
}

/**
 * Whether the request carries `Authorization: Bearer <METRICS_TOKEN>`: the operator's credential
 * for what the service's figures say about its machine. False when no token is set.
 */
export function bearsMetricsToken(request: FastifyRequest, token: string | null): boolean {
  if (token === null) return false;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(request.headers.authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
