import { realtimeMessage, realtimeTiming, type RealtimeMessage } from '@filerunner/protocol';

/** The part of the browser's WebSocket the connection uses (Node's `ws` has it too). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RealtimeConnectionOptions {
  url: string;
  /** A message from the server that the app acts on (pings and pongs are handled here). */
  onMessage: (message: RealtimeMessage) => void;
  openSocket?: (url: string) => SocketLike;
  timers?: Timers;
  /** Where unknown or unreadable messages are reported. */
  warn?: (message: string, detail?: unknown) => void;
}

const OPEN = 1;

/** The wait before reconnect attempt `attempt` (1, 2, ...): attempt² seconds, at most 30 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * attempt, realtimeTiming.reconnectCapSeconds) * 1000;
}

/** A server message, or null (with the reason) when it is unreadable or of an unknown kind. */
export function readMessage(
  data: unknown,
): { message: RealtimeMessage } | { problem: string; detail: unknown } {
  if (typeof data !== 'string') return { problem: 'not text', detail: data };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { problem: 'not JSON', detail: data };
  }
  const parsed = realtimeMessage.safeParse(json);
  if (!parsed.success) return { problem: 'unknown event', detail: json };
  return { message: parsed.data };
}

/**
 * The signed-in app's realtime socket. It always reconnects after the socket closes, waiting
 * attempt² seconds (capped at 30 s) and starting over once a socket opens. It keeps its own
 * heartbeat as well, because a browser cannot see protocol pings: it pings every 25 s and drops
 * a socket that has said nothing for 60 s, which then reconnects. `close()` ends it for good.
 */
export class RealtimeConnection {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private stopped = false;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  private silenceTimer: unknown = null;
  private readonly timers: Timers;
  private readonly openSocket: (url: string) => SocketLike;
  private readonly warn: (message: string, detail?: unknown) => void;

  constructor(private readonly options: RealtimeConnectionOptions) {
    this.timers = options.timers ?? {
      setTimeout: (run, ms) => window.setTimeout(run, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
    };
    this.openSocket = options.openSocket ?? ((url) => new WebSocket(url) as SocketLike);
    this.warn = options.warn ?? ((message, detail) => console.warn(message, detail));
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  close(): void {
    this.stopped = true;
    this.clear('reconnectTimer');
    this.clear('pingTimer');
    this.clear('silenceTimer');
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'signed out');
    }
  }

  private connect(): void {
    if (this.stopped) return;
    let socket: SocketLike;
    try {
      socket = this.openSocket(this.options.url);
    } catch (error) {
      this.warn('realtime: could not open the socket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.heard();
      this.schedulePing();
    };
    socket.onmessage = (event) => {
      this.heard();
      const read = readMessage(event.data);
      if ('problem' in read) {
        this.warn(`realtime: ignored a message (${read.problem})`, read.detail);
        return;
      }
      if (read.message.type === 'ping') this.send({ type: 'pong' });
      else if (read.message.type !== 'pong') this.options.onMessage(read.message);
    };
    // A refused or failed socket closes too: onclose is the one place that reconnects.
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clear('pingTimer');
      this.clear('silenceTimer');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.attempt += 1;
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, reconnectDelayMs(this.attempt));
  }

  private schedulePing(): void {
    this.clear('pingTimer');
    this.pingTimer = this.timers.setTimeout(() => {
      this.send({ type: 'ping' });
      this.schedulePing();
    }, realtimeTiming.pingIntervalMs);
  }

  /** Anything from the server shows the socket alive; silence for too long drops it. */
  private heard(): void {
    this.clear('silenceTimer');
    this.silenceTimer = this.timers.setTimeout(() => {
      this.warn('realtime: the server stopped answering; reconnecting');
      this.socket?.close(4000, 'no pong');
      // Some browsers fire onclose late for a dead link; do not wait for it.
      const socket = this.socket;
      if (socket) socket.onclose?.({ code: 4000 });
    }, realtimeTiming.pongTimeoutMs);
  }

  private send(message: { type: 'ping' | 'pong' }): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private clear(timer: 'reconnectTimer' | 'pingTimer' | 'silenceTimer'): void {
    if (this[timer] !== null) this.timers.clearTimeout(this[timer]);
    this[timer] = null;
  }
}
