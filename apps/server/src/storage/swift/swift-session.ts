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
 * A logged-in Swift account: v1 auth (X-Auth-User / X-Auth-Key → X-Storage-Url, X-Auth-Token)
 * and requests carrying the token. A 401 renews the token once and repeats the request,
 * because tokens expire (tempauth: after a day) while the server runs for weeks.
 */
export class SwiftSession {
  private token: string | undefined;
  private storage: string | undefined;
  private login: Promise<void> | null = null;

  constructor(private readonly credentials: SwiftCredentials) {
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

  /** Sends a request with the token; on 401 renews the token and sends it once more. */
  async request(request: SwiftRequest): Promise<Response> {
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
      throw new StorageError('unavailable', `Swift ${request.method} failed: ${String(error)}`);
    } finally {
      // Only the wait for the headers is bounded; a long download keeps streaming.
      clearTimeout(timer);
    }
  }
}
