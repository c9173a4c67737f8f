import {
  api,
  createRouteClient,
  newIdempotencyKey,
  type ApiRoute,
  type RouteArgs,
  type RouteClient,
  type RouteResponse,
} from '@filerunner/protocol';
import type { Clock, HttpClient } from '../ports';

/** Where the API is and who calls it. */
export interface ApiTarget {
  /** The API's base, `/api` in the page or `https://host/api` elsewhere; paths come from the route table. */
  baseUrl: string;
  /**
   * Sent with every call: `X-Client-Version` and the session cookie (in the browser the cookie
   * travels by itself), or `Authorization: Api-Key <key>`.
   */
  headers: Record<string, string>;
}

/** What `create` takes: the Share screen's fields (see `createPackageRequest`). */
export type CreatePackageFields = Body<typeof api.packages.create>;

/** The body a route takes, as its client gives it. */
type Body<R extends ApiRoute> = RouteArgs<R> extends { body: infer B } ? B : never;

/** The rows `updatefiles` records, each with its xxh128, kept per package file. */
export type ReportedFile = Body<typeof api.packages.updateFiles>['files'][number];
export type SlabReport = Body<typeof api.packages.updateSlabFile>;
export type LargeFileReport = Body<typeof api.packages.slo>;

/**
 * The sender's calls of the route table through the route client, which retries them by the
 * API's rule (all may be repeated; the reports also after a 400, and without a timeout). Every
 * answer, good or bad, is shown to `observe` (the abort policy), 0 for an attempt that got none.
 */
export class PackageApi {
  private readonly client: RouteClient;

  constructor(
    http: HttpClient,
    target: ApiTarget,
    clock: Clock,
    observe: (status: number) => void = () => undefined,
    private readonly random: () => number = Math.random,
  ) {
    this.client = createRouteClient({
      http,
      baseUrl: target.baseUrl,
      headers: target.headers,
      clock,
      random,
      onAnswer: (answer) => observe(answer?.status ?? 0),
    });
  }

  /**
   * Creates the package; one idempotency key for every attempt, so a retry never makes two. A
   * caller that keeps the key (the CLI, across a Ctrl-C) gives it, and gets the same package.
   */
  create(
    fields: CreatePackageFields,
    signal?: AbortSignal,
    idempotencyKey: string = newIdempotencyKey(this.random),
  ): Promise<RouteResponse<typeof api.packages.create>> {
    return this.client.call(api.packages.create, { body: fields }, { signal, idempotencyKey });
  }

  bulk(slug: string, body: Body<typeof api.packages.bulk>, signal?: AbortSignal) {
    return this.client.call(api.packages.bulk, { params: { slug }, body }, { signal });
  }

  updateFiles(pkg: PackageRef, files: ReportedFile[], signal?: AbortSignal) {
    const args = { params: params(pkg), body: { files } };
    return this.client.call(api.packages.updateFiles, args, { signal });
  }

  updateSlabFile(pkg: PackageRef, body: SlabReport, signal?: AbortSignal) {
    return this.client.call(api.packages.updateSlabFile, { params: params(pkg), body }, { signal });
  }

  slo(pkg: PackageRef, body: LargeFileReport, signal?: AbortSignal) {
    return this.client.call(api.packages.slo, { params: params(pkg), body }, { signal });
  }

  /** Sends the package; `force` leaves out the files that never arrived. */
  finalise(pkg: PackageRef & { name: string }, force: boolean, signal?: AbortSignal) {
    const body = { name: pkg.name, contract: pkg.contract.slug, complete: true as const, force };
    return this.client.call(api.packages.finalise, { params: params(pkg), body }, { signal });
  }
}

/** The package's names as the upload calls' paths take them. */
export interface PackageRef {
  slug: string;
  contract: { slug: string };
}

const params = (pkg: PackageRef) => ({ contract: pkg.contract.slug, package: pkg.slug });
