import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { rangeHeader } from '../byte-range';
import { accountPathOf, signFormPostGrant, signTempUrlGrant, type GrantSigner } from '../grants';
import { encodeKeyForUrl } from '../signing';
import {
  DEFAULT_EXPOSED_HEADERS,
  StorageError,
  parseSegmentPath,
  type ByteRange,
  type ContainerOptions,
  type DeleteOptions,
  type DeleteResult,
  type FormPostGrant,
  type FormPostRequest,
  type ListedObject,
  type ManifestSegment,
  type ObjectInfo,
  type ObjectLocation,
  type PutManifestOptions,
  type ReadOptions,
  type SignedTempUrl,
  type StorageDriver,
  type StoredManifest,
  type TempUrlRequest,
} from '../storage-driver';
import { SwiftSession, type SwiftCredentials } from './swift-session';

export interface SwiftDriverOptions extends SwiftCredentials {
  /** The account's Temp-URL key; the driver sets it on the account (X-Account-Meta-Temp-URL-Key). */
  readonly tempUrlKey: string;
  /** Other proxy hosts serving the account: origins (`https://swift2`) or full account URLs. */
  readonly alternativeUrls?: readonly string[];
  /** Browser origin allowed by the containers' CORS metadata. */
  readonly allowedOrigin: string;
}

const DELETE_CONCURRENCY = 8;
const LISTING_PAGE = 10_000;

function objectPath(location: ObjectLocation): string {
  return `/${encodeURIComponent(location.container)}/${encodeKeyForUrl(location.key)}`;
}

/** Swift's X-Delete-At header: Unix seconds, or null when the object has no expiry. */
function deleteAtOf(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? Math.floor(seconds) : null;
}

function unquote(etag: string | null): string {
  return (etag ?? '').replace(/"/g, '');
}

const MAX_SMALL_READS = 32;

/** At most `size` holders at once; the others wait in order. */
class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async take(): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return;
    }
    // The slot passes straight from `give` to the first waiter.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}

async function failure(response: Response, what: string): Promise<StorageError> {
  const text = (await response.text().catch(() => '')).slice(0, 500);
  const code =
    response.status === 401 || response.status === 403
      ? 'unauthorized'
      : response.status === 507
        ? 'insufficient_storage'
        : 'unavailable';
  return new StorageError(code, `Swift ${what}: ${response.status} ${text}`.trim());
}

/**
 * StorageDriver for an OpenStack Swift cluster over its HTTP API (Node's fetch, no SDK).
 * Browsers use the grants it signs directly against Swift; the server-side operations use an
 * auth token. Manifests are PUT here with the token because Swift's tempurl middleware drops
 * `multipart-manifest=put` from TempURLs (and would store the JSON as a plain object).
 */
export class SwiftDriver implements StorageDriver {
  /**
   * Small reads in flight at once from this node. Each download reads many small files ahead;
   * ten ranged requests at once asked the single-node Swift of scripts/swift-saio.sh for 320
   * GETs together, and it began to refuse the token (401) and then the login (503).
   */
  private readonly smallReads = new Slots(MAX_SMALL_READS);
  readonly kind = 'swift' as const;
  private readonly session: SwiftSession;
  private signer: GrantSigner | null = null;

  private constructor(private readonly options: SwiftDriverOptions) {
    this.session = new SwiftSession(options);
  }

  /** Logs in and makes sure the account's Temp-URL key is the configured one. */
  static async connect(options: SwiftDriverOptions): Promise<SwiftDriver> {
    const driver = new SwiftDriver(options);
    await driver.session.connect();
    const accountUrl = driver.session.storageUrl;
    const accountPath = accountPathOf(accountUrl);
    driver.signer = {
      accountUrl,
      alternativeAccountUrls: (options.alternativeUrls ?? []).map((url) => {
        const trimmed = url.replace(/\/+$/, '');
        return new URL(trimmed).pathname.length > 1 ? trimmed : trimmed + accountPath;
      }),
      tempUrlKey: options.tempUrlKey,
    };
    await driver.setTempUrlKey();
    return driver;
  }

  private get grants(): GrantSigner {
    if (!this.signer) throw new Error('SwiftDriver used before connect()');
    return this.signer;
  }

  get accountUrl(): string {
    return this.grants.accountUrl;
  }

  get alternativeAccountUrls(): readonly string[] {
    return this.grants.alternativeAccountUrls;
  }

  private async setTempUrlKey(): Promise<void> {
    const head = await this.session.request({ method: 'HEAD', path: '' });
    if (head.ok && head.headers.get('x-account-meta-temp-url-key') === this.options.tempUrlKey)
      return;
    const post = await this.session.request({
      method: 'POST',
      path: '',
      headers: { 'x-account-meta-temp-url-key': this.options.tempUrlKey },
    });
    await post.body?.cancel();
    if (!post.ok) throw await failure(post, 'refused the Temp-URL key');
  }

  signTempUrl(request: TempUrlRequest): SignedTempUrl {
    return signTempUrlGrant(this.grants, request);
  }

  signFormPost(request: FormPostRequest): FormPostGrant {
    return signFormPostGrant(this.grants, request);
  }

  async ensureContainer(container: string, options: ContainerOptions = {}): Promise<void> {
    const headers: Record<string, string> = {
      'x-container-meta-access-control-allow-origin': (
        options.allowedOrigins ?? [this.options.allowedOrigin]
      ).join(' '),
      'x-container-meta-access-control-expose-headers': (
        options.exposedHeaders ?? DEFAULT_EXPOSED_HEADERS
      ).join(' '),
    };
    if (options.maxAgeSeconds !== undefined) {
      headers['x-container-meta-access-control-max-age'] = String(options.maxAgeSeconds);
    }
    const response = await this.session.request({
      method: 'PUT',
      path: `/${encodeURIComponent(container)}`,
      headers,
    });
    await response.body?.cancel();
    if (!response.ok) throw await failure(response, `refused container ${container}`);
  }

  async putManifest(
    location: ObjectLocation,
    segments: readonly ManifestSegment[],
    options: PutManifestOptions = {},
  ): Promise<StoredManifest> {
    const body = JSON.stringify(
      segments.map((segment) => {
        if ('data' in segment) return { data: Buffer.from(segment.data).toString('base64') };
        return {
          path: `/${segment.object.container}/${segment.object.key}`,
          etag: segment.etag ?? null,
          size_bytes: segment.sizeBytes ?? null,
          ...(segment.range ? { range: rangeHeader(segment.range).slice(6) } : {}),
        };
      }),
    );
    const headers: Record<string, string> = {
      'content-type': options.contentType ?? 'application/octet-stream',
      accept: 'application/json',
    };
    for (const [name, value] of Object.entries(options.metadata ?? {})) {
      headers[`x-object-meta-${name.toLowerCase()}`] = value;
    }
    const response = await this.session.request({
      method: 'PUT',
      path: `${objectPath(location)}?multipart-manifest=put`,
      headers,
      body,
      timeoutMs: 300_000,
    });
    if (response.status === 400 || response.status === 413 || response.status === 422) {
      const text = await response.text();
      let problems: [string, string][] = [];
      try {
        problems = (JSON.parse(text) as { Errors?: [string, string][] }).Errors ?? [];
      } catch {
        // Input errors (bad JSON, too many segments) come back as plain text.
      }
      const message = problems.length ? problems.map((p) => p.join(', ')).join('\n') : text.trim();
      throw new StorageError('invalid_manifest', message, problems);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new StorageError('not_found', `container ${location.container} does not exist`);
    }
    if (!response.ok) throw await failure(response, 'refused the manifest');
    await response.body?.cancel();
    const info = await this.head(location);
    if (!info) throw new StorageError('unavailable', 'manifest vanished right after its PUT');
    return { etag: unquote(response.headers.get('etag')) || info.etag, sizeBytes: info.sizeBytes };
  }

  async readManifest(location: ObjectLocation): Promise<ManifestSegment[] | null> {
    const response = await this.session.request({
      method: 'GET',
      path: `${objectPath(location)}?multipart-manifest=get&format=raw`,
    });
    const isManifest =
      (response.headers.get('x-static-large-object') ?? '').toLowerCase() === 'true';
    if (response.status === 404 || (response.ok && !isManifest)) {
      // For a plain object Swift answers with the object's bytes: not wanted here.
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await failure(response, 'manifest GET failed');
    const raw = (await response.json()) as (
      { data: string } | { path: string; etag: string; size_bytes: number; range?: string }
    )[];
    return raw.map((segment): ManifestSegment => {
      if ('data' in segment) return { data: Buffer.from(segment.data, 'base64') };
      const [first, last] = (segment.range ?? '').split('-').map(Number);
      return {
        object: parseSegmentPath(segment.path),
        etag: segment.etag,
        sizeBytes: segment.size_bytes,
        ...(segment.range ? { range: { offset: first!, length: last! - first! + 1 } } : {}),
      };
    });
  }

  async head(location: ObjectLocation): Promise<ObjectInfo | null> {
    const response = await this.session.request({ method: 'HEAD', path: objectPath(location) });
    if (response.status === 404) return null;
    if (!response.ok) throw await failure(response, 'HEAD failed');
    const metadata: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name.startsWith('x-object-meta-')) metadata[name.slice('x-object-meta-'.length)] = value;
    });
    const lastModified = response.headers.get('last-modified');
    return {
      sizeBytes: Number(response.headers.get('content-length') ?? 0),
      etag: unquote(response.headers.get('etag')),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      lastModified: lastModified ? new Date(lastModified) : new Date(0),
      isManifest: (response.headers.get('x-static-large-object') ?? '').toLowerCase() === 'true',
      metadata,
      deleteAt: deleteAtOf(response.headers.get('x-delete-at')),
    };
  }

  async read(
    location: ObjectLocation,
    range?: ByteRange,
    options: ReadOptions = {},
  ): Promise<Readable> {
    const response = await this.get(location, range, options);
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  }

  async readBytes(
    location: ObjectLocation,
    range: ByteRange,
    options: ReadOptions = {},
  ): Promise<Uint8Array> {
    await this.smallReads.take();
    try {
      // One GET, its body taken whole: no stream to set up for a few kilobytes.
      const response = await this.get(location, range, options);
      return new Uint8Array(await response.arrayBuffer());
    } finally {
      this.smallReads.give();
    }
  }

  /** A GET of the object (or one range) answered with its bytes to come; else a StorageError. */
  private async get(
    location: ObjectLocation,
    range: ByteRange | undefined,
    options: ReadOptions,
  ): Promise<Response> {
    if (range && (range.length <= 0 || range.offset < 0)) {
      throw new StorageError('range_not_satisfiable', 'empty or negative range');
    }
    const headers: Record<string, string> = {};
    if (range) headers.range = rangeHeader(range);
    // Swift checks it against a manifest's own etag too (its SLO etag), before any byte.
    if (options.ifMatch !== undefined) headers['if-match'] = `"${unquote(options.ifMatch)}"`;
    const response = await this.session.request({
      method: 'GET',
      path: objectPath(location),
      headers,
    });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new StorageError('not_found', `${location.container}/${location.key} not found`);
    }
    if (response.status === 412) {
      await response.body?.cancel();
      throw new StorageError(
        'precondition_failed',
        `${location.container}/${location.key} is no longer the object with etag ${options.ifMatch}`,
      );
    }
    if (response.status === 416) {
      await response.body?.cancel();
      throw new StorageError('range_not_satisfiable', `range outside ${location.key}`);
    }
    const expected = range ? 206 : 200;
    if (response.status !== expected || !response.body) {
      throw await failure(response, `GET answered ${response.status}, expected ${expected}`);
    }
    return response;
  }

  async deleteObject(location: ObjectLocation, options: DeleteOptions = {}): Promise<DeleteResult> {
    // A plain DELETE of a manifest removes the manifest alone, as keepSegments asks.
    if (options.keepSegments) return this.deletePlain(location);
    const info = await this.head(location);
    if (!info) return { deleted: 0, notFound: 1 };
    return info.isManifest ? this.deleteManifest(location) : this.deletePlain(location);
  }

  private async deletePlain(location: ObjectLocation): Promise<DeleteResult> {
    const response = await this.session.request({ method: 'DELETE', path: objectPath(location) });
    await response.body?.cancel();
    if (response.status === 404) return { deleted: 0, notFound: 1 };
    if (!response.ok) throw await failure(response, 'DELETE failed');
    return { deleted: 1, notFound: 0 };
  }

  /** `?multipart-manifest=delete`: Swift removes the segments, then the manifest. */
  private async deleteManifest(location: ObjectLocation): Promise<DeleteResult> {
    const response = await this.session.request({
      method: 'DELETE',
      path: `${objectPath(location)}?multipart-manifest=delete`,
      headers: { accept: 'application/json' },
      timeoutMs: 300_000,
    });
    if (!response.ok) throw await failure(response, 'manifest DELETE failed');
    const summary = (await response.json()) as {
      'Number Deleted'?: number;
      'Number Not Found'?: number;
      Errors?: unknown[];
    };
    if (summary.Errors && summary.Errors.length > 0) {
      throw new StorageError('unavailable', `manifest DELETE: ${JSON.stringify(summary.Errors)}`);
    }
    return { deleted: summary['Number Deleted'] ?? 0, notFound: summary['Number Not Found'] ?? 0 };
  }

  async *listObjects(container: string, keyPrefix: string): AsyncIterable<ListedObject> {
    for (let marker = ''; ;) {
      const query = new URLSearchParams({
        format: 'json',
        prefix: keyPrefix,
        marker,
        limit: String(LISTING_PAGE),
      });
      const response = await this.session.request({
        method: 'GET',
        path: `/${encodeURIComponent(container)}?${query}`,
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return;
      }
      if (!response.ok) throw await failure(response, 'listing failed');
      const page = (await response.json()) as {
        name: string;
        bytes: number;
        hash: string;
        slo_etag?: string;
      }[];
      for (const item of page) {
        yield {
          key: item.name,
          sizeBytes: item.bytes,
          // A manifest's own etag, as HEAD gives it, is its slo_etag; `hash` is of its JSON.
          etag: unquote(item.slo_etag ?? item.hash),
          isManifest: item.slo_etag !== undefined,
        };
      }
      if (page.length < LISTING_PAGE) return;
      marker = page[page.length - 1]!.name;
    }
  }

  async deletePrefix(container: string, keyPrefix: string): Promise<DeleteResult> {
    const manifests: string[] = [];
    const plain: string[] = [];
    for await (const item of this.listObjects(container, keyPrefix)) {
      (item.isManifest ? manifests : plain).push(item.key);
    }
    const total = { deleted: 0, notFound: 0 };
    const add = (result: DeleteResult) => {
      total.deleted += result.deleted;
      total.notFound += result.notFound;
    };
    // Manifests first: their segments go with them, and are then "not found" below.
    await inParallel(manifests, (key) => this.deleteManifest({ container, key }).then(add));
    await inParallel(plain, (key) => this.deletePlain({ container, key }).then(add));
    return total;
  }

  async close(): Promise<void> {}
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, items.length) }, worker));
}
