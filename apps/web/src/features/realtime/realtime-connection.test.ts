import { describe, expect, it } from 'vitest';
import type { RealtimeMessage } from '@filerunner/protocol';
import {
  readMessage,
  RealtimeConnection,
  reconnectDelayMs,
  type SocketLike,
  type Timers,
} from './realtime-connection';
import { realtimeUrl } from './use-realtime';

/** A socket driven by the test as the server would drive the browser's one. */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  closedWith: number | undefined;
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(data: unknown) {
    this.onmessage?.({ data });
  }
  /** The server refused it, or the link dropped. */
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/** Timers the test advances by hand, so waits of seconds are checked without waiting. */
class ManualTimers implements Timers {
  private next = 1;
  pending = new Map<number, { run: () => void; ms: number }>();
  setTimeout(run: () => void, ms: number) {
    const id = this.next++;
    this.pending.set(id, { run, ms });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.pending.delete(handle as number);
  }
  /** Runs the pending timer of `ms` (there must be exactly one). */
  fire(ms: number) {
    const due = [...this.pending].filter(([, t]) => t.ms === ms);
    expect(due, `one timer of ${ms} ms`).toHaveLength(1);
    const [id, timer] = due[0]!;
    this.pending.delete(id);
    timer.run();
  }
  delays() {
    return [...this.pending.values()].map((t) => t.ms).sort((a, b) => a - b);
  }
}

function setUp() {
  const sockets: ScriptedSocket[] = [];
  const received: RealtimeMessage[] = [];
  const warnings: string[] = [];
  const timers = new ManualTimers();
  const connection = new RealtimeConnection({
    url: 'ws://app.example/api/ws',
    onMessage: (m) => received.push(m),
    openSocket: (url) => {
      expect(url).toBe('ws://app.example/api/ws');
      const socket = new ScriptedSocket();
      sockets.push(socket);
      return socket;
    },
    timers,
    warn: (message) => warnings.push(message),
  });
  connection.start();
  return { connection, sockets, received, warnings, timers, last: () => sockets.at(-1)! };
}

describe('the realtime connection', () => {
  it('waits attempt² seconds between reconnects, at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(reconnectDelayMs)).toEqual([
      1000, 4000, 9000, 16000, 25000, 30000, 30000,
    ]);
  });

  it('reconnects with a growing wait while refused, and starts over once connected', () => {
    const { sockets, timers, last } = setUp();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      last().drop();
      expect(timers.delays()).toHaveLength(1);
      waits.push(timers.delays()[0]!);
      timers.fire(waits.at(-1)!);
    }
    expect(waits).toEqual([1000, 4000, 9000, 16000, 25000, 30000, 30000]);
    expect(sockets).toHaveLength(8);

    // Connected again: the next drop waits one second, not 30.
    last().open();
    last().drop();
    expect(timers.delays()).toEqual([1000]);
  });

  it('acts on known events and logs unknown or unreadable ones without stopping', () => {
    const { received, warnings, last } = setUp();
    last().open();
    last().receive('{not json');
    last().receive(JSON.stringify({ type: 'weather', sunny: true }));
    last().receive(JSON.stringify({ type: 'package_received', package: { slug: 'x' } }));
    last().receive(new Uint8Array([1, 2]));
    last().receive(
      JSON.stringify({ type: 'package_received', package: { slug: 'p1', contract_slug: 'c1' } }),
    );
    expect(warnings).toEqual([
      'realtime: ignored a message (not JSON)',
      'realtime: ignored a message (unknown event)',
      'realtime: ignored a message (unknown event)',
      'realtime: ignored a message (not text)',
    ]);
    expect(received).toEqual([
      { type: 'package_received', package: { slug: 'p1', contract_slug: 'c1' } },
    ]);
    expect(readMessage('{"type":"resync"}')).toEqual({ message: { type: 'resync' } });
  });

  it('pings every 25 s, answers pings, and drops a socket silent for 60 s', () => {
    const { sockets, timers, last } = setUp();
    last().open();
    expect(timers.delays()).toEqual([25_000, 60_000]);
    timers.fire(25_000);
    expect(last().sent).toEqual(['{"type":"ping"}']);
    last().receive('{"type":"pong"}');
    last().receive('{"type":"ping"}');
    expect(last().sent.at(-1)).toBe('{"type":"pong"}');

    // Nothing heard for 60 s: the socket is given up and a new one is on its way.
    timers.fire(60_000);
    expect(sockets[0]!.closedWith).toBe(4000);
    expect(timers.delays()).toEqual([1000]);
    timers.fire(1000);
    expect(sockets).toHaveLength(2);
  });

  it('closes for good at sign-out: no reconnect, no timers left', () => {
    const { connection, sockets, timers, last } = setUp();
    last().open();
    connection.close();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(timers.delays()).toEqual([]);
    sockets[0]!.drop();
    expect(timers.delays()).toEqual([]);
    expect(sockets).toHaveLength(1);
  });

  it('uses wss behind https, on the page’s own host', () => {
    expect(realtimeUrl({ protocol: 'https:', host: 'files.example:8443' })).toBe(
      'wss://files.example:8443/api/ws',
    );
    expect(realtimeUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/api/ws',
    );
  });
});
