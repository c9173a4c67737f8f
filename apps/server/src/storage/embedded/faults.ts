import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoreFaultSettings } from '../../config';

/** What an injected fault does to one storage request. */
export type StoreFault = 'fail' | 'drop' | 'stall';

export interface FaultDecision {
  readonly delayMs: number;
  readonly fault: StoreFault | null;
}

/** How many storage requests were seen and faulted since the settings last changed. */
export interface StoreFaultCounts {
  requests: number;
  failed: number;
  dropped: number;
  stalled: number;
}

/** Shares are whole millionths, so the even spread is exact integer arithmetic. */
const SCALE = 1_000_000;

/**
 * Faults the embedded store injects into its own traffic, so transfer tests see what flaky
 * networks and overloaded proxies do: 503 answers, connections cut mid-body, slow answers.
 * Off unless settings are given (STORE_FAULTS, or `set` from a test).
 *
 * Without a seed, faults are spread evenly: with `fail: 0.3`, exactly 3 of every 10 requests
 * fail, the 4th, 7th and 10th, so a test sees the same counts on every run and, below one half,
 * never two failures in a row. `drop` is a share of the requests not failed: with `fail: 0.3,
 * drop: 0.05`, 5 % of the other 70 % are cut; `stall` is likewise a share of the requests neither
 * failed nor dropped. With a seed, faults come from a repeatable
 * pseudo-random sequence instead, which also produces bursts.
 */
export class StoreFaults {
  #settings: StoreFaultSettings | null = null;
  #random: (() => number) | null = null;
  #counts: StoreFaultCounts = { requests: 0, failed: 0, dropped: 0, stalled: 0 };

  constructor(settings: Partial<StoreFaultSettings> | null = null) {
    this.set(settings);
  }

  /** Turns faults on with new settings (counts and sequence start again), or off with null. */
  set(settings: Partial<StoreFaultSettings> | null): void {
    this.#settings = settings && {
      fail: settings.fail ?? 0,
      drop: settings.drop ?? 0,
      stall: settings.stall ?? 0,
      delayMs: settings.delayMs ?? 0,
      ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    };
    this.#random = settings?.seed === undefined ? null : mulberry32(settings.seed);
    this.#counts = { requests: 0, failed: 0, dropped: 0, stalled: 0 };
  }

  get settings(): StoreFaultSettings | null {
    return this.#settings;
  }

  counts(): StoreFaultCounts {
    return { ...this.#counts };
  }

  /** Decides the fate of the next storage request; null when faults are off. */
  decide(): FaultDecision | null {
    const settings = this.#settings;
    if (!settings) return null;
    const n = this.#counts.requests++;
    let fault: StoreFault | null = null;
    if (this.#random) {
      // Both are drawn every time, so one share never shifts the other's sequence.
      const fail = this.#random() < settings.fail;
      const drop = this.#random() < settings.drop;
      // Drawn only when asked for, so the sequences of seeds chosen before stalls existed hold.
      const stall = settings.stall > 0 && this.#random() < settings.stall;
      fault = fail ? 'fail' : drop ? 'drop' : stall ? 'stall' : null;
    } else if (evenlyPicked(settings.fail, n)) {
      fault = 'fail';
    } else if (evenlyPicked(settings.drop, n - this.#counts.failed)) {
      // Counted among the requests not failed, so the two spreads never land on one request.
      fault = 'drop';
    } else if (evenlyPicked(settings.stall, n - this.#counts.failed - this.#counts.dropped)) {
      fault = 'stall';
    }
    if (fault === 'fail') this.#counts.failed++;
    if (fault === 'drop') this.#counts.dropped++;
    if (fault === 'stall') this.#counts.stalled++;
    return { delayMs: settings.delayMs, fault };
  }
}

function evenlyPicked(share: number, n: number): boolean {
  const millionths = Math.round(share * SCALE);
  return Math.floor(((n + 1) * millionths) / SCALE) > Math.floor((n * millionths) / SCALE);
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The body of an injected 503, saying where it came from to whoever reads a capture. */
export const INJECTED_UNAVAILABLE_BODY = 'Service Unavailable (injected by STORE_FAULTS)\n';

/** How long a stalled request is held at most, should its client never give up. */
export const STALL_HOLD_MS = 10 * 60_000;

/** Responses picked to be cut or stalled half-way through their body. */
const faultedResponses = new WeakMap<IncomingMessage, 'drop' | 'stall'>();

/**
 * Applies a decision before the request is handled. Returns true when the request was answered
 * or cut here; false when it should be handled (a GET picked for a drop or a stall is handled,
 * and its response body cut or stalled by `cutResponseBody`; any other request picked for either
 * is cut).
 */
export async function injectFault(
  request: FastifyRequest,
  reply: FastifyReply,
  decision: FaultDecision,
  answerUnavailable: () => FastifyReply,
): Promise<boolean> {
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  if (decision.fault) {
    request.log.debug({ fault: decision.fault, method: request.method }, 'injected store fault');
  }
  if (decision.fault === 'fail') {
    // Read the upload first, as an overloaded proxy would, so the client sees the status and
    // not a reset while it is still sending.
    request.raw.resume();
    await finished(request.raw).catch(() => undefined);
    answerUnavailable();
    return true;
  }
  if (decision.fault === null) return false;
  if (request.method === 'GET') {
    faultedResponses.set(request.raw, decision.fault);
    return false;
  }
  // Taken first: a request stream left early lets go of its socket.
  const socket = request.raw.socket;
  reply.hijack();
  // A stall acts on answers; an upload picked for one is cut as a drop.
  if (request.method === 'PUT' || request.method === 'POST') await readHalfOfBody(request.raw);
  socket.destroy();
  return true;
}

/** Reads about half of an upload (one chunk when its length is unknown) before the cut. */
async function readHalfOfBody(raw: IncomingMessage): Promise<void> {
  const length = Number(raw.headers['content-length']);
  const keep = Number.isFinite(length) ? Math.floor(length / 2) : 1;
  if (keep === 0) return;
  let received = 0;
  for await (const chunk of raw) {
    received += (chunk as Buffer).length;
    if (received >= keep) break;
  }
}

/** Resolves when the client closes the connection, or after STALL_HOLD_MS. */
function heldUntilLeft(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, STALL_HOLD_MS);
    timer.unref();
    socket.once('close', done);
    function done() {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    }
  });
}

/**
 * onSend hook: a response picked for a drop sends its headers (with the full Content-Length) and
 * half its body, then its connection is cut; one picked for a stall sends the same half, then
 * nothing more, its connection open until the client gives up (as a proxy that hangs does).
 */
export async function cutResponseBody(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const fault = faultedResponses.get(request.raw);
  if (!fault) return payload;
  faultedResponses.delete(request.raw);
  let body: Readable;
  let length: number;
  if (payload instanceof Readable) {
    body = payload;
    length = Number(reply.getHeader('content-length'));
  } else {
    const bytes = Buffer.from(typeof payload === 'string' ? payload : ((payload as Buffer) ?? ''));
    body = Readable.from([bytes]);
    length = bytes.length;
    reply.header('content-length', String(length));
  }
  const keep = Number.isFinite(length) ? Math.floor(length / 2) : 1;
  const socket = request.raw.socket;
  if (fault === 'drop') {
    // 'finish' means the last bytes were handed to the kernel: they arrive before the close.
    reply.raw.once('finish', () => socket.destroy());
    return Readable.from(firstBytes(body, keep));
  }
  return Readable.from(stalledAfter(firstBytes(body, keep), socket));
}

async function* firstBytes(source: Readable, limit: number): AsyncGenerator<Buffer> {
  let sent = 0;
  if (limit === 0) {
    source.destroy();
    return;
  }
  for await (const chunk of source) {
    const buffer = chunk as Buffer;
    const room = limit - sent;
    if (buffer.length >= room) {
      yield buffer.subarray(0, room);
      return;
    }
    sent += buffer.length;
    yield buffer;
  }
}

/** The bytes, then a silence that lasts until the client leaves; then the connection is cut. */
async function* stalledAfter(
  bytes: AsyncGenerator<Buffer>,
  socket: Socket,
): AsyncGenerator<Buffer> {
  yield* bytes;
  await heldUntilLeft(socket);
  // Never ended as a whole answer: the body is short of its Content-Length.
  socket.destroy();
}
