import {
  api,
  API_KEY_SCHEME,
  createRouteClient,
  type ApiRoute,
  type CallRest,
  type RouteArgs,
  type RouteClient,
  type RouteResponse,
  type SenderPackage,
} from '@filerunner/protocol';
import {
  systemClock,
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
 * The calls `send` makes before the upload engine takes over, through the route client (the
 * API's retries and timeout). A failed call throws the protocol's `ApiError` (status 0 when
 * nothing answered), so every call's failure is judged the same way.
 */
export class ServerApi {
  private readonly client: RouteClient;

  constructor(
    http: HttpClient,
    readonly target: ApiTarget,
    clock: Clock = systemClock,
  ) {
    this.client = createRouteClient({
      http,
      baseUrl: target.baseUrl,
      headers: target.headers,
      clock,
    });
  }

  /** The caller's contracts, with their settings (upload workers, slab files, ad-hoc rule). */
  contracts(signal?: AbortSignal) {
    return this.read(api.contracts.list, undefined, signal);
  }

  /** Whom the caller may send to in the contract, by group. */
  recipients(contract: string, signal?: AbortSignal) {
    return this.read(api.recipients.list, { params: { slug: contract } }, signal);
  }

  constraints(signal?: AbortSignal) {
    return this.read(api.filesystem.constraints, undefined, signal);
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
    return this.client.call(api.packages.create, { body: fields }, { signal, idempotencyKey });
  }

  /**
   * A read, its answer checked against the route's schema: an address that answers something
   * else is not a FileRunner (or not this version of one), which is better said than misread.
   */
  private async read<R extends ApiRoute>(
    route: R,
    args: RouteArgs<R>,
    signal: AbortSignal | undefined,
  ): Promise<RouteResponse<R>> {
    // A generic route's arguments cannot be told from a bare call's; each caller above is typed.
    const rest = [args, { signal }] as unknown as CallRest<R>;
    const answer = await this.client.call(route, ...rest);
    const schema = route.response;
    const parsed = typeof schema === 'object' && schema !== null ? schema.safeParse(answer) : null;
    if (!parsed?.success) {
      throw new CliFailure(
        'unreachable',
        `The server at ${this.target.baseUrl} did not answer ${route.path} as FileRunner does.`,
      );
    }
    return parsed.data as RouteResponse<R>;
  }
}
