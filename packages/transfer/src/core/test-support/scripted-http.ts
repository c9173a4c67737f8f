import type { FormBody, HttpClient, HttpMethod, HttpRequest, HttpResponse } from '../ports';
import type { ManualClock } from './manual-clock';

/** An answer of the script. */
export interface ScriptedAnswer {
  /** 200 unless given. */
  status?: number;
  /** Sent as the body, as JSON (with `content-type: application/json`). */
  json?: unknown;
  /** Sent as the body as it is (wins over `json`). */
  text?: string;
  headers?: Record<string, string>;
  /**
   * The body bytes told to `onUploadProgress` before the answer, in order; by default half the
   * body, then all of it. Ignored for a request without a body.
   */
  progress?: number[];
  /**
   * The answer's bytes for `body()` (a download's chunk): bytes are streamed in pieces of
   * `pieceSize`; a function gives the stream itself (a test that cuts or holds it).
   */
  body?: Uint8Array | (() => ReadableStream<Uint8Array>);
  /** Bytes per piece of a streamed `body` (4096 unless given). */
  pieceSize?: number;
  /** Clock time the answer takes (spread over the progress steps); the client's `latencyMs` unless given. */
  delayMs?: number;
}

/** A request that gets no answer: the client rejects, as on a dropped connection. */
export interface NetworkFailure {
  networkError: string;
  /** Body bytes told to `onUploadProgress` before the connection drops. */
  progress?: number[];
}

/** What the script does with one request. */
export type Reply =
  ScriptedAnswer | NetworkFailure | Gate | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** The body of a recorded request, described so a test can assert on it. */
export type RecordedBody =
  | { kind: 'none' }
  | { kind: 'blob'; size: number; blob: Blob }
  | {
      kind: 'form';
      size: number;
      fields: [string, string][];
      files: { field: string; filename: string; size: number; content: Blob }[];
    }
  | { kind: 'json'; value: unknown };

export interface RecordedRequest {
  method: HttpMethod;
  url: string;
  /** The URL's path, without origin or query. */
  path: string;
  query: URL['searchParams'];
  headers: Record<string, string>;
  body: RecordedBody;
  /** The JSON body, when the request sent one. */
  json: unknown;
  /** How it ended: the status answered, `network-error`, `aborted`, or `unexpected`. */
  outcome: number | 'pending' | 'network-error' | 'aborted' | 'unexpected';
}

/** Thrown (as the request's rejection, and by `verify`) for a request the script did not expect. */
export class UnexpectedRequestError extends Error {
  override readonly name = 'UnexpectedRequestError';
}

/**
 * Holds the requests that reach it until the test releases them: `arrived` says one is waiting,
 * `release` answers it. A held request rejects at once when its signal aborts, as a real one does.
 */
export class Gate {
  private readonly held: {
    request: RecordedRequest;
    answer: (reply: Reply) => void;
  }[] = [];
  private readonly watchers: ((request: RecordedRequest) => void)[] = [];
  /** Every request that reached the gate. */
  readonly seen: RecordedRequest[] = [];

  /** Resolves when a request reaches the gate (at once if one is waiting). */
  get arrived(): Promise<RecordedRequest> {
    const waiting = this.held[0];
    if (waiting) return Promise.resolve(waiting.request);
    return new Promise((resolve) => this.watchers.push(resolve));
  }

  /** Requests waiting at the gate now. */
  get waiting(): number {
    return this.held.length;
  }

  /** Lets the first waiting request go on with `reply` (by default a 200 with no body). */
  release(reply: Reply = {}): void {
    const first = this.held.shift();
    if (!first) throw new Error('no request is waiting at the gate');
    first.answer(reply);
  }

  /** @internal Called by `ScriptedHttp`. */
  hold(request: RecordedRequest, signal: AbortSignal | undefined): Promise<Reply> {
    this.seen.push(request);
    return new Promise<Reply>((resolve, reject) => {
      const entry = {
        request,
        answer: (reply: Reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
      };
      const onAbort = () => {
        const at = this.held.indexOf(entry);
        if (at >= 0) this.held.splice(at, 1);
        reject(signal!.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.held.push(entry);
      for (const watcher of this.watchers.splice(0)) watcher(request);
    });
  }
}

/** The requests of one method and URL pattern, and what the script answers them. */
export class Route {
  private readonly queued: Reply[] = [];
  private always: Reply | null = null;
  /** The requests this route answered. */
  readonly requests: RecordedRequest[] = [];

  constructor(
    readonly method: HttpMethod,
    readonly pattern: string | RegExp,
  ) {}

  /** Answers every request with `reply` once the replies queued by `once` are used up. */
  reply(reply: Reply): this {
    this.always = reply;
    return this;
  }

  /** Answers the next requests with these replies, one each, before `reply`'s. */
  once(...replies: Reply[]): this {
    this.queued.push(...replies);
    return this;
  }

  /** Answers the next `count` requests with `reply`. */
  times(count: number, reply: Reply): this {
    for (let i = 0; i < count; i++) this.queued.push(reply);
    return this;
  }

  /** Forgets its replies: requests go on to the routes added before it. */
  clear(): this {
    this.queued.length = 0;
    this.always = null;
    return this;
  }

  /** @internal */
  matches(method: HttpMethod, url: string): boolean {
    if (method !== this.method) return false;
    if (typeof this.pattern === 'string') {
      return url === this.pattern || url.split('?')[0] === this.pattern;
    }
    return this.pattern.test(url);
  }

  /** @internal The next reply, or null when the script holds none. */
  take(): Reply | null {
    return this.queued.shift() ?? this.always;
  }
}

/**
 * An `HttpClient` that answers from a script, for engine tests without a server. Requests are
 * matched by method and URL (a string matches the whole URL or the URL without its query; a
 * RegExp is tested on the whole URL); the route added last that matches and has a reply left
 * answers, so the usual answers are scripted first and a test's exceptions after them. Every
 * request is recorded in `requests`.
 *
 * A request no route answers rejects with `UnexpectedRequestError` and is kept in `unexpected`;
 * since the engine treats a rejection as a dropped connection and may carry on, tests call
 * `verify()` (in `afterEach`) so that a stray request fails the test.
 */
export class ScriptedHttp implements HttpClient {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: RecordedRequest[] = [];
  private readonly routes: Route[] = [];
  private readonly clock: ManualClock | undefined;
  private readonly latencyMs: number;

  constructor(options: { clock?: ManualClock; latencyMs?: number } = {}) {
    this.clock = options.clock;
    this.latencyMs = options.latencyMs ?? 0;
  }

  /**
   * Adds a route for `method` requests to URLs matching `pattern`; script it with its methods.
   * It takes precedence over the routes added before it for as long as it has replies left.
   */
  on(method: HttpMethod, pattern: string | RegExp): Route {
    const route = new Route(method, pattern);
    // In front: a test scripts the usual answers first and then the exceptions it is about.
    this.routes.unshift(route);
    return route;
  }

  /** The recorded requests of `method` whose URL matches `pattern` (as `on` matches). */
  sent(method: HttpMethod, pattern: string | RegExp): RecordedRequest[] {
    const probe = new Route(method, pattern);
    return this.requests.filter((r) => probe.matches(r.method, r.url));
  }

  /** Throws when a request came that the script did not expect. */
  verify(): void {
    if (this.unexpected.length === 0) return;
    const list = this.unexpected.map((r) => `${r.method} ${r.url}`).join('\n  ');
    throw new UnexpectedRequestError(`requests the script did not expect:\n  ${list}`);
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const recorded = record(request);
    this.requests.push(recorded);
    request.signal?.throwIfAborted();
    let reply: Reply | null = null;
    for (const route of this.routes) {
      if (!route.matches(request.method, request.url)) continue;
      reply = route.take();
      if (reply !== null) {
        route.requests.push(recorded);
        break;
      }
    }
    if (reply === null) {
      recorded.outcome = 'unexpected';
      this.unexpected.push(recorded);
      throw new UnexpectedRequestError(`unexpected request: ${request.method} ${request.url}`);
    }
    try {
      return await this.answer(reply, recorded, request);
    } catch (error) {
      if (recorded.outcome === 'pending') {
        recorded.outcome = request.signal?.aborted ? 'aborted' : 'network-error';
      }
      throw error;
    }
  }

  private async answer(
    reply: Reply,
    recorded: RecordedRequest,
    request: HttpRequest,
  ): Promise<HttpResponse> {
    for (;;) {
      if (typeof reply === 'function') reply = await reply(recorded);
      else if (reply instanceof Gate) reply = await reply.hold(recorded, request.signal);
      else break;
    }
    request.signal?.throwIfAborted();
    const size = 'size' in recorded.body ? recorded.body.size : 0;
    const progress = reply.progress ?? (size > 0 ? [Math.floor(size / 2), size] : []);
    const delay = ('delayMs' in reply ? reply.delayMs : undefined) ?? this.latencyMs;
    const steps = Math.max(1, progress.length);
    for (const sent of size > 0 ? progress : []) {
      await this.pass(delay / steps, request.signal);
      request.onUploadProgress?.(sent);
    }
    if ('networkError' in reply) {
      recorded.outcome = 'network-error';
      throw new TypeError(reply.networkError);
    }
    if (size === 0 || progress.length === 0) await this.pass(delay, request.signal);
    const status = reply.status ?? 200;
    recorded.outcome = status;
    return responseOf(status, reply);
  }

  private async pass(ms: number, signal: AbortSignal | undefined) {
    if (this.clock) await this.clock.pass(ms, signal);
    else await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
  }
}

function responseOf(status: number, answer: ScriptedAnswer): HttpResponse {
  const body =
    answer.text ?? (answer.json === undefined ? '' : (JSON.stringify(answer.json) as string));
  const headers = new Map(
    Object.entries({
      ...(answer.json !== undefined && answer.text === undefined
        ? { 'content-type': 'application/json' }
        : {}),
      ...answer.headers,
    }).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const bytes = answer.body;
  return {
    status,
    header: (name) => headers.get(name.toLowerCase()) ?? null,
    text: async () => body,
    body: () => {
      if (typeof bytes === 'function') return bytes();
      return streamOf(bytes ?? new TextEncoder().encode(body), answer.pieceSize ?? 4096);
    },
  };
}

/** `bytes` as a stream of pieces of `pieceSize`, each a copy (as a network read would be). */
export function streamOf(bytes: Uint8Array, pieceSize = 4096): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + pieceSize));
      at += pieceSize;
    },
  });
}

function record(request: HttpRequest): RecordedRequest {
  const url = new URL(request.url);
  const body = bodyOf(request.body);
  return {
    method: request.method,
    url: request.url,
    path: url.pathname,
    query: url.searchParams,
    headers: { ...request.headers },
    body,
    json: body.kind === 'json' ? body.value : undefined,
    outcome: 'pending',
  };
}

function bodyOf(body: HttpRequest['body']): RecordedBody {
  if (body === undefined) return { kind: 'none' };
  if (body instanceof Blob) return { kind: 'blob', size: body.size, blob: body };
  if ('json' in body)
    return { kind: 'json', value: JSON.parse(JSON.stringify(body.json)) as unknown };
  const form = body as FormBody;
  const files = form.files.map((f) => ({ ...f, size: f.content.size }));
  return {
    kind: 'form',
    fields: form.fields.map(([name, value]) => [name, value]),
    files,
    size: files.reduce((total, f) => total + f.size, 0),
  };
}
