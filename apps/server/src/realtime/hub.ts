import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { realtimeTiming, SESSION_ENDED_CLOSE, type RealtimeMessage } from '@filerunner/protocol';
import type { SessionStore } from '../modules/accounts/sessions';
import type { RealtimeEvent } from './announce';
import { EventListener } from './listener';

/** setTimeout's largest delay; a later session end is checked again when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

/** The session a socket was opened with. */
export interface SocketSession {
  userId: number;
  email: string;
  /** The cookie's token: the session is looked up again with it at each heartbeat. */
  token: string;
  hash: string;
  expiresAt: Date;
}

interface Connection extends SocketSession {
  socket: WebSocket;
  /** Drops the socket if no pong comes; set while a ping is unanswered. */
  pongDeadline: NodeJS.Timeout | undefined;
  expiryTimer: NodeJS.Timeout | undefined;
}

/**
 * The sockets of this server process, by user. Events reach it from PostgreSQL (whichever
 * process announced them), and it passes each one to the sockets of the users it names. Every
 * socket is pinged and its session checked again at each heartbeat, and closed when the session
 * ends, so a socket never outlives the sign-in that opened it.
 */
export class RealtimeHub {
  private readonly byUser = new Map<number, Set<Connection>>();
  private readonly listener: EventListener;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      databaseUrl: string;
      sessions: SessionStore;
      log: FastifyBaseLogger;
      pingIntervalMs?: number;
      pongTimeoutMs?: number;
    },
  ) {
    this.listener = new EventListener(
      deps.databaseUrl,
      deps.log,
      (event) => this.dispatch(event),
      () => this.broadcast({ type: 'resync' }),
    );
  }

  async start(): Promise<void> {
    await this.listener.start();
    this.heartbeat = setInterval(
      () => void this.beat(),
      this.deps.pingIntervalMs ?? realtimeTiming.pingIntervalMs,
    );
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const connection of this.connections()) {
      // 1001 "going away": the browser reconnects, to this process once back or to another.
      if (connection.socket.readyState === connection.socket.OPEN) {
        connection.socket.close(1001, 'server stopping');
      }
      this.forget(connection);
    }
    await this.listener.stop();
  }

  /** How many sockets this process holds (for tests and diagnostics). */
  get size(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /** How many sockets of the session (by its hash) this process holds. */
  socketsOfSession(hash: string): number {
    let count = 0;
    for (const set of this.byUser.values()) {
      for (const connection of set) if (connection.hash === hash) count++;
    }
    return count;
  }

  add(socket: WebSocket, session: SocketSession): void {
    const connection: Connection = {
      ...session,
      socket,
      pongDeadline: undefined,
      expiryTimer: undefined,
    };
    let set = this.byUser.get(session.userId);
    if (!set) this.byUser.set(session.userId, (set = new Set()));
    set.add(connection);
    this.scheduleExpiry(connection);

    socket.on('pong', () => this.heard(connection));
    socket.on('message', (data, isBinary) => {
      this.heard(connection);
      if (isBinary) return;
      // The browser may keep its own heartbeat with app-level pings.
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if ((message as { type?: unknown } | null)?.type === 'ping') {
        this.send(connection, { type: 'pong' });
      }
    });
    socket.on('close', () => this.forget(connection));
    socket.on('error', (error) => {
      this.deps.log.debug({ err: error }, 'realtime: socket error');
      this.drop(connection);
    });
    this.send(connection, { type: 'user_connected', email: session.email });
  }

  private dispatch(event: RealtimeEvent): void {
    if (event.type === 'package_received' || event.type === 'package_downloaded') {
      const message = { type: event.type, package: event.package } as RealtimeMessage;
      for (const userId of event.user_ids ?? []) {
        for (const connection of this.byUser.get(Number(userId)) ?? []) {
          this.send(connection, message);
        }
      }
    } else if (event.type === 'sessions_ended') {
      const hashes = new Set(event.session_hashes ?? []);
      for (const connection of this.connections()) {
        if (hashes.has(connection.hash) || connection.userId === event.user_id) {
          this.endSession(connection);
        }
      }
    }
  }

  private broadcast(message: RealtimeMessage): void {
    for (const connection of this.connections()) this.send(connection, message);
  }

  private send(connection: Connection, message: RealtimeMessage): void {
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    connection.socket.send(JSON.stringify(message));
  }

  private async beat(): Promise<void> {
    const pongTimeout = this.deps.pongTimeoutMs ?? realtimeTiming.pongTimeoutMs;
    for (const connection of this.connections()) {
      if (connection.socket.readyState !== connection.socket.OPEN) continue;
      if (!connection.pongDeadline) {
        connection.pongDeadline = setTimeout(() => {
          this.deps.log.debug('realtime: no pong, dropping the socket');
          connection.socket.terminate();
          this.forget(connection);
        }, pongTimeout);
        connection.pongDeadline.unref();
      }
      connection.socket.ping();
    }
    // A session can end without an announcement reaching us (removed user, a listener that
    // was down): each socket's session is looked up again.
    await Promise.all(this.connections().map((c) => this.recheck(c)));
  }

  private heard(connection: Connection): void {
    clearTimeout(connection.pongDeadline);
    connection.pongDeadline = undefined;
  }

  /** Closes the socket if its session is over; follows an extended session's new end. */
  private async recheck(connection: Connection): Promise<void> {
    try {
      const session = await this.deps.sessions.find(connection.token);
      if (!session || session.hash !== connection.hash) {
        this.endSession(connection);
        return;
      }
      if (session.expiresAt.getTime() !== connection.expiresAt.getTime()) {
        connection.expiresAt = session.expiresAt;
        this.scheduleExpiry(connection);
      }
    } catch (error) {
      // The database is unreachable: the socket stays until the next heartbeat can tell.
      this.deps.log.warn({ err: error }, 'realtime: could not check a session');
    }
  }

  private scheduleExpiry(connection: Connection): void {
    clearTimeout(connection.expiryTimer);
    const delay = Math.max(0, connection.expiresAt.getTime() - Date.now());
    connection.expiryTimer = setTimeout(
      () => {
        if (Date.now() >= connection.expiresAt.getTime()) void this.recheck(connection);
        else this.scheduleExpiry(connection);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    connection.expiryTimer.unref();
  }

  private endSession(connection: Connection): void {
    if (connection.socket.readyState === connection.socket.OPEN) {
      connection.socket.close(SESSION_ENDED_CLOSE, 'session ended');
    }
    this.forget(connection);
  }

  /** Closes a socket without a reason the browser should act on (server stopping, error). */
  private drop(connection: Connection): void {
    connection.socket.terminate();
    this.forget(connection);
  }

  private forget(connection: Connection): void {
    clearTimeout(connection.pongDeadline);
    clearTimeout(connection.expiryTimer);
    const set = this.byUser.get(connection.userId);
    set?.delete(connection);
    if (set && !set.size) this.byUser.delete(connection.userId);
  }

  private connections(): Connection[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }
}
