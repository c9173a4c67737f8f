import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { EVENTS_CHANNEL, type RealtimeEvent } from './announce';

/** The longest wait between two attempts to get the listening connection back. */
const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * One dedicated PostgreSQL connection per server process that LISTENs on the events channel, so
 * an event announced by any process (in its transaction, delivered at commit) reaches the
 * sockets held by this one. A pooled connection cannot LISTEN: the pool hands it to other
 * queries. When the connection drops (database restart, failover) it is opened again with a
 * growing delay; events announced meanwhile are lost, and the hub tells browsers to refetch.
 */
export class EventListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
    private readonly onEvent: (event: RealtimeEvent) => void,
    /** Called after the connection came back from a drop (not on the first start). */
    private readonly onReconnect: () => void = () => undefined,
  ) {}

  /** Connects and listens; resolves once listening so the first events are not missed. */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    // Both fire on a drop; only the first one schedules the reconnect.
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.stopped) return;
      lost = true;
      this.log.warn({ err: error }, 'realtime: database listening connection lost');
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      let event: RealtimeEvent;
      try {
        event = JSON.parse(message.payload) as RealtimeEvent;
      } catch {
        this.log.warn('realtime: unreadable event on the events channel');
        return;
      }
      this.onEvent(event);
    });
    try {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
    } catch (error) {
      // The caller decides whether to try again; this client's own events must not as well.
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    const reconnected = this.attempt > 0;
    this.attempt = 0;
    if (reconnected) {
      this.log.info('realtime: database listening connection back');
      this.onReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.attempt += 1;
    const delay = Math.min(this.attempt * this.attempt * 1000, MAX_RECONNECT_DELAY_MS);
    this.retry = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.log.warn({ err: error }, 'realtime: reconnecting the listening connection failed');
        this.scheduleReconnect();
      });
    }, delay);
    this.retry.unref();
  }
}
