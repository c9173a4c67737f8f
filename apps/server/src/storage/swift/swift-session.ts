import { setTimeout as sleep } from 'node:timers/promises';
import { StorageError } from '../storage-driver';

export interface SwiftCredentials {
  /** v1 auth endpoint (tempauth, swauth, or Keystone's v1 compatibility), e.g. `.../auth/v1.0`. */
  readonly authUrl?: string;
  readonly user?: string;
  readonly key?: string;
  /** The account's storage URL; overrides the one auth returns (e.g. a public endpoint). */
  readonly storageUrl?: string;
  /** A token to use until it is refused; with credentials it is renewed on a 401. */
  readonly token?: string;
}

export interface SwiftRequest {
  readonly method: string;
  /** Path below the storage URL, already percent-encoded, e.g. `/c/k?x=y`; '' for the account. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: Uint8Array | string;
  /** Milliseconds until the answer's headers must have arrived; defaults to 30 s. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Waits before each new attempt of a read Swift answered with a server fault or did not answer:
 * a proxy or container server under a burst of writes refuses for a moment (a container's
 * database locked by the updates of many new objects), and a package sent or a download asked
 * in that moment should not fail for it. Swift's own client retries the same way. Four retries,
 * under 4 s in all; writes are not repeated here (their callers know whether they may be).
 */
export const SWIFT_READ_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000];

/** Methods that change nothing, so sending one again can only get a fresher answer. */
const READS = new Set(['GET', 'HEAD']);

/** Server faults worth another attempt; 507 (a full store) is not a moment's refusal. */
const retriable = (status: number) => status >= 500 && status !== 507 && status !== 501;

/**
 * A logged-in Swift account: v1 auth (X-Auth-User / X-Auth-Key → X-Storage-Url, X-Auth-Token)
 * and requests carrying the token. A 401 renews the token once and repeats the request,
 * because tokens expire (tempauth: after a day) while the server runs for weeks.
 */
export class SwiftSession {
  private token: string | undefined;
  private storage: string | undefined;
  private login: Promise<void> | null = null;

  constructor(
    private readonly credentials: SwiftCredentials,
    private readonly readRetryDelaysMs: readonly number[] = SWIFT_READ_RETRY_DELAYS_MS,
  ) {
    this.token = credentials.token;
    this.storage = credentials.storageUrl?.replace(/\/+$/, '');
    const canLogin = Boolean(credentials.authUrl && credentials.user && credentials.key);
    if (!canLogin && !(this.storage && this.token)) {
      throw new Error('Swift needs authUrl, user and key, or storageUrl and token');
    }
  }

  get storageUrl(): string {
    if (!this.storage) throw new Error('not authenticated yet');
    return this.storage;
  }

  private get canLogin(): boolean {
    return Boolean(this.credentials.authUrl && this.credentials.user && this.credentials.key);
  }

  /** Logs in unless a token is already at hand. */
  async connect(): Promise<void> {
    if (!this.token || !this.storage) await this.authenticate();
  }

  /** One login at a time: concurrent 401s share it. */
  authenticate(): Promise<void> {
    this.login ??= this.fetchToken().finally(() => {
      this.login = null;
    });
    return this.login;
  }

  private async fetchToken(): Promise<void> {
    const { authUrl, user, key } = this.credentials;
    if (!authUrl || !user || !key)
      throw new StorageError('unauthorized', 'Swift refused the token');
    let response: Response;
    try {
      response = await fetch(authUrl, {
        headers: { 'x-auth-user': user, 'x-auth-key': key },
        signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      throw new StorageError('unavailable', `Swift auth at ${authUrl} failed: ${String(error)}`);
    }
    await response.body?.cancel();
    if (response.status === 401 || response.status === 403) {
      throw new StorageError('unauthorized', `Swift auth refused user ${user}`);
    }
    const token = response.headers.get('x-auth-token');
    const storage = response.headers.get('x-storage-url');
    if (!response.ok || !token || !storage) {
      throw new StorageError(
        'unavailable',
        `Swift auth answered ${response.status} without a token`,
      );
    }
    this.token = token;
    this.storage ??= storage.replace(/\/+$/, '');
  }

  /**
   * Sends a request with the token; on 401 renews the token and sends it once more. A read that
   * meets a server fault or no answer is tried again after each of the retry delays; the last
   * attempt's answer or error is the caller's.
   */
  async request(request: SwiftRequest): Promise<Response> {
    const delays = READS.has(request.method) ? this.readRetryDelaysMs : [];
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= delays.length;
      try {
        const response = await this.requestOnce(request);
        if (last || !retriable(response.status)) return response;
        await response.body?.cancel();
      } catch (error) {
        // A read that waited its whole timeout is not tried again: the caller has waited enough.
        const refused = error instanceof StorageError && error.code === 'unavailable';
        if (last || !refused || error instanceof NoAnswerInTime) throw error;
      }
      await sleep(delays[attempt]);
    }
  }

  private async requestOnce(request: SwiftRequest): Promise<Response> {
    await this.connect();
    const tokenUsed = this.token;
    const first = await this.send(request);
    if (first.status !== 401 || !this.canLogin) return first;
    await first.body?.cancel();
    // Requests refused together log in once: later ones find the token already renewed.
    if (this.token === tokenUsed) await this.authenticate();
    return this.send(request);
  }

  private async send(request: SwiftRequest): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error('Swift did not answer in time')),
      request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    try {
      return await fetch(`${this.storageUrl}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, 'x-auth-token': this.token ?? '' },
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: controller.signal,
      });
    } catch (error) {
      const message = `Swift ${request.method} failed: ${String(error)}`;
      throw controller.signal.aborted
        ? new NoAnswerInTime(message)
        : new StorageError('unavailable', message);
    } finally {
      // Only the wait for the headers is bounded; a long download keeps streaming.
      clearTimeout(timer);
    }
  }
}

/** Swift did not answer within the request's timeout (unavailable, but not worth a retry). */
class NoAnswerInTime extends StorageError {
  constructor(message: string) {
    super('unavailable', message);
  }
}
