import {
  api,
  IDEMPOTENCY_KEY_HEADER,
  methodOf,
  pathOf,
  type ApiRoute,
  type BulkResponse,
  type FilesRecorded,
  type LargeFileRecorded,
  type SenderPackage,
} from '@filerunner/protocol';
import type { Clock, HttpClient, HttpMethod } from '../ports';
import { apiRetryPolicy, requestWithRetries, type AttemptOutcome } from '../retry';
import type { BulkRequestBody } from './plan';

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

/** A call that failed after its retries: the status (0 when nothing answered) and the answer. */
export class UploadApiError extends Error {
  override readonly name = 'UploadApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }

  /** The answer's `detail` message, when it has one. */
  get detail(): string | undefined {
    const detail = (this.body as { detail?: unknown } | null)?.detail;
    if (typeof detail === 'string') return detail;
    return Array.isArray(detail) && typeof detail[0] === 'string' ? detail[0] : undefined;
  }
}

/** What `create` takes: the Share screen's fields (see `createPackageRequest`). */
export type CreatePackageFields = Record<string, unknown> & {
  contract: string | number;
  name: string;
  intended_files: { filename: string; size: number }[];
};

/** Each file's xxh128 travels with its report, so the server keeps it per package file. */
export interface ReportedHash {
  xxh128?: string;
}

/**
 * The sender's calls of the route table, each with the API's retry policy: up to 3 retries on
 * server faults and 429, also on 400 for the reports (storage may lag behind), a 60 s timeout
 * except for the reports. Every answer, good or bad, is shown to `observe` (the abort policy).
 */
export class PackageApi {
  constructor(
    private readonly http: HttpClient,
    private readonly target: ApiTarget,
    private readonly clock: Clock,
    private readonly observe: (status: number) => void = () => undefined,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * Creates the package; one idempotency key for every attempt, so a retry never makes two. A
   * caller that keeps the key (the CLI, across a Ctrl-C) gives it, and gets the same package.
   */
  create(
    fields: CreatePackageFields,
    signal?: AbortSignal,
    key: string = this.newIdempotencyKey(),
  ): Promise<SenderPackage> {
    return this.call(api.packages.create, {}, fields, signal, { [IDEMPOTENCY_KEY_HEADER]: key });
  }

  /** 128 random bits in hex. */
  newIdempotencyKey(): string {
    return Array.from({ length: 4 }, () =>
      Math.floor(this.random() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
  }

  bulk(slug: string, body: BulkRequestBody, signal?: AbortSignal): Promise<BulkResponse> {
    return this.call(api.packages.bulk, { slug }, body, signal);
  }

  updateFiles(
    pkg: PackageRef,
    files: ({
      etag?: string | null;
      object_path: string;
      size_bytes: number;
      user_path: string;
    } & ReportedHash)[],
    signal?: AbortSignal,
  ): Promise<FilesRecorded> {
    return this.call(api.packages.updateFiles, params(pkg), { files }, signal);
  }

  updateSlabFile(
    pkg: PackageRef,
    body: {
      object_path: string;
      size: number;
      files: ({ user_path: string; start_byte: number; end_byte: number } & ReportedHash)[];
    },
    signal?: AbortSignal,
  ): Promise<FilesRecorded> {
    return this.call(api.packages.updateSlabFile, params(pkg), body, signal);
  }

  slo(
    pkg: PackageRef,
    body: {
      upload_filename: string;
      size: number;
      session_id?: string;
      slo_content: { path: string; etag: string; size_bytes: number }[];
    } & ReportedHash,
    signal?: AbortSignal,
  ): Promise<LargeFileRecorded> {
    return this.call(api.packages.slo, params(pkg), body, signal);
  }

  /** Sends the package; `force` leaves out the files that never arrived. */
  finalise(
    pkg: PackageRef & { name: string },
    force: boolean,
    signal?: AbortSignal,
  ): Promise<SenderPackage & { failed_files: string[] }> {
    const body = { name: pkg.name, contract: pkg.contract.slug, complete: true, force };
    return this.call(api.packages.finalise, params(pkg), body, signal);
  }

  private async call<T>(
    route: ApiRoute,
    pathParams: Record<string, string>,
    body: unknown,
    signal: AbortSignal | undefined,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const url = `${this.target.baseUrl}${pathOf(route, pathParams)}`;
    const method = methodOf(route) as HttpMethod;
    const headers = { accept: 'application/json', ...this.target.headers, ...extraHeaders };
    const response = await requestWithRetries(
      this.http,
      () => ({ method, url, headers, body: { json: body } }),
      apiRetryPolicy(route, this.random),
      {
        clock: this.clock,
        signal,
        onFailedAttempt: (outcome: AttemptOutcome) =>
          this.observe('response' in outcome ? outcome.response.status : 0),
      },
    ).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      throw new UploadApiError(0, undefined, `${route.path}: no answer`);
    });
    const text = await response.text();
    let answer: unknown = text;
    try {
      answer = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a proxy's error page): kept as text for the error.
    }
    // Failed attempts were shown to `observe` as they happened.
    if (response.status >= 400) {
      throw new UploadApiError(response.status, answer, `${route.path}: ${response.status}`);
    }
    this.observe(response.status);
    return answer as T;
  }
}

/** The package's names as the upload calls' paths take them. */
export interface PackageRef {
  slug: string;
  contract: { slug: string };
}

const params = (pkg: PackageRef) => ({ contract: pkg.contract.slug, package: pkg.slug });
