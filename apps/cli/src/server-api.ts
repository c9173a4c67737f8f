import {
  api,
  API_KEY_SCHEME,
  pathOf,
  type ApiRoute,
  type RouteResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import {
  apiRetryPolicy,
  PackageApi,
  requestWithRetries,
  systemClock,
  UploadApiError,
  type ApiTarget,
  type Clock,
  type CreatePackageFields,
  type HttpClient,
} from '@filerunner/transfer/node';
import { CliFailure } from './failures';

const USER_AGENT = 'filerunner-cli/0.1';

/**
 * The API of the FileRunner at `serverUrl` (the address people open it at; a trailing `/api`
 * is accepted too), called with an API key.
 */
export function apiTarget(serverUrl: string, apiKey: string): ApiTarget {
  const origin = serverUrl.replace(/\/+$/, '').replace(/\/api$/, '');
  return {
    baseUrl: `${origin}/api`,
    headers: { authorization: `${API_KEY_SCHEME} ${apiKey}`, 'user-agent': USER_AGENT },
  };
}

/**
 * The calls `send` makes before the upload engine takes over, through the route table, with
 * the API's retries. A failed call throws the engine's `UploadApiError` (status 0 when nothing
 * answered), so every call's failure is judged the same way.
 */
export class ServerApi {
  private readonly packages: PackageApi;

  constructor(
    private readonly http: HttpClient,
    readonly target: ApiTarget,
    private readonly clock: Clock = systemClock,
  ) {
    this.packages = new PackageApi(http, target, clock);
  }

  /** The caller's contracts, with their settings (upload workers, slab files, ad-hoc rule). */
  contracts(signal?: AbortSignal) {
    return this.get(api.contracts.list, {}, signal);
  }

  /** Whom the caller may send to in the contract, by group. */
  recipients(contract: string, signal?: AbortSignal) {
    return this.get(api.recipients.list, { slug: contract }, signal);
  }

  constraints(signal?: AbortSignal) {
    return this.get(api.filesystem.constraints, {}, signal);
  }

  /**
   * Creates the package: one idempotency key for all attempts, so a retry never makes two, and
   * the same key again (from an earlier run) answers the package that run made.
   */
  createPackage(
    fields: CreatePackageFields,
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<SenderPackage> {
    return this.packages.create(fields, signal, idempotencyKey);
  }

  newIdempotencyKey(): string {
    return this.packages.newIdempotencyKey();
  }

  private async get<R extends ApiRoute>(
    route: R,
    params: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RouteResponse<R>> {
    const url = `${this.target.baseUrl}${pathOf(route, params)}`;
    const headers = { accept: 'application/json', ...this.target.headers };
    const response = await requestWithRetries(
      this.http,
      () => ({ method: 'GET', url, headers }),
      apiRetryPolicy(route),
      { clock: this.clock, signal },
    ).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      throw new UploadApiError(0, undefined, `${route.path}: no answer`);
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: a proxy's error page, or no FileRunner at this address.
    }
    if (response.status >= 400) {
      throw new UploadApiError(response.status, body, `${route.path}: ${response.status}`);
    }
    const schema = route.response;
    const parsed = typeof schema === 'object' && schema !== null ? schema.safeParse(body) : null;
    if (!parsed?.success) {
      throw new CliFailure(
        'unreachable',
        `The server at ${this.target.baseUrl} did not answer ${route.path} as FileRunner does.`,
      );
    }
    return parsed.data as RouteResponse<R>;
  }
}
