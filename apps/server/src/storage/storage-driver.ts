import type { Readable } from 'node:stream';
import type { PlacedRead } from './placed-reads';

/**
 * Where an object lives: a container and the object's key inside it. Keys may contain '/'
 * (they are flat names; prefixes are only a naming convention).
 */
export interface ObjectLocation {
  readonly container: string;
  readonly key: string;
}

/** A contiguous run of bytes: `length` bytes starting at byte `offset`. */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** The digests Swift accepts for TempURL and FormPost signatures. */
export type SignatureDigest = 'sha1' | 'sha256' | 'sha512';

/** Methods a TempURL grant may allow. A GET grant also allows HEAD. */
export type TempUrlMethod = 'GET' | 'HEAD' | 'PUT' | 'DELETE';

export interface TempUrlRequest {
  readonly method: TempUrlMethod;
  readonly container: string;
  /** The object key, or with `prefixScope` the key prefix every object under it shares. */
  readonly key: string;
  /** One signature for every object whose key starts with `key` (Swift's temp_url_prefix). */
  readonly prefixScope?: boolean;
  /** Unix time in seconds after which storage refuses the URL. */
  readonly expires: number;
  /**
   * Download name for the Content-Disposition of a GET. There is no `inline`: nothing a user
   * stored is ever shown by the browser (the embedded store ignores Swift's `inline`).
   */
  readonly filename?: string;
  /** Defaults to sha256. */
  readonly digest?: SignatureDigest;
}

/** A signed TempURL grant, valid on every storage host of the account. */
export interface SignedTempUrl {
  /** Absolute URL of the object (or of the prefix itself, for a prefix grant). */
  readonly url: string;
  /** The same URL on each alternative storage host, in configuration order. */
  readonly alternativeUrls: readonly string[];
  /** The query string carrying the grant, without '?': append it to any object URL it covers. */
  readonly query: string;
  readonly signature: string;
  readonly expires: number;
  /** The account path that was signed, e.g. `/v1/AUTH_x/c/k` (prefix grants: the prefix). */
  readonly signedPath: string;
}

export interface FormPostRequest {
  readonly container: string;
  /** Each uploaded file is stored under this prefix + the file part's filename. */
  readonly keyPrefix: string;
  /** Where storage sends the browser with 303 (`?status=&message=` appended); '' for none. */
  readonly redirect?: string;
  readonly maxFileSize: number;
  readonly maxFileCount: number;
  /** Unix time in seconds. */
  readonly expires: number;
  readonly digest?: SignatureDigest;
}

/** A signed FormPost grant: POST multipart/form-data to `url` with `fields` before any file. */
export interface FormPostGrant {
  readonly url: string;
  readonly alternativeUrls: readonly string[];
  readonly redirect: string;
  readonly maxFileSize: number;
  readonly maxFileCount: number;
  readonly expires: number;
  readonly signature: string;
  /** The exact form fields, in the order storage needs them (all before the first file). */
  readonly fields: Readonly<
    Record<'redirect' | 'max_file_size' | 'max_file_count' | 'expires' | 'signature', string>
  >;
}

/**
 * One part of a manifest (a Swift static large object): bytes of an object, optionally
 * only a range of it, or inline bytes kept in the manifest itself (tar headers, padding).
 */
export type ManifestSegment =
  | {
      readonly object: ObjectLocation;
      /** When given, the manifest is refused unless the segment has this MD5 etag. */
      readonly etag?: string | null;
      /** When given, the manifest is refused unless the segment has this size. */
      readonly sizeBytes?: number | null;
      readonly range?: ByteRange;
    }
  | { readonly data: Uint8Array };

export interface PutManifestOptions {
  readonly contentType?: string;
  /** Stored as X-Object-Meta-<name>. */
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface StoredManifest {
  /** The manifest's etag as storage reports it: MD5 over the segments' etags (unquoted). */
  readonly etag: string;
  /** Bytes a GET of the manifest returns. */
  readonly sizeBytes: number;
}

export interface ObjectInfo {
  readonly sizeBytes: number;
  /** MD5 hex of the bytes; for a manifest the MD5 of the segments' etags (unquoted). */
  readonly etag: string;
  readonly contentType: string;
  readonly lastModified: Date;
  readonly isManifest: boolean;
  /** X-Object-Meta-* values, names lower-case without the prefix. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * Unix seconds at which storage deletes the object by itself (Swift's X-Delete-At, set by a
   * writer's X-Delete-At / X-Delete-After header or FormPost field); null when it keeps it.
   */
  readonly deleteAt: number | null;
}

/** An object as a container listing shows it. */
export interface ListedObject {
  readonly key: string;
  /** Stored bytes; for a manifest what storage lists for it (not bytes of its own). */
  readonly sizeBytes: number;
  /** MD5 hex of the stored bytes (of a manifest: storage's own etag for it). */
  readonly etag: string;
  readonly isManifest: boolean;
}

export interface DeleteOptions {
  /** Removes only the manifest itself, leaving its segments (Swift's plain DELETE). */
  readonly keepSegments?: boolean;
}

export interface ReadOptions {
  /**
   * Read only while the object's etag (as `head` reports it: a manifest's own etag) is this one,
   * as HTTP If-Match does; otherwise StorageError 'precondition_failed'. So a reader that
   * recorded an object's etag never gets other bytes after the object was replaced.
   */
  readonly ifMatch?: string;
}

export interface DeleteResult {
  /** Objects removed, counting a manifest's segments. */
  readonly deleted: number;
  readonly notFound: number;
}

export interface ContainerOptions {
  /** Browser origins allowed by CORS; defaults to the driver's configured origin. */
  readonly allowedOrigins?: readonly string[];
  /** Response headers the browser may read; defaults to DEFAULT_EXPOSED_HEADERS. */
  readonly exposedHeaders?: readonly string[];
  readonly maxAgeSeconds?: number;
}

/** Headers the transfer engine reads from storage responses across origins. */
export const DEFAULT_EXPOSED_HEADERS: readonly string[] = [
  'etag',
  'content-length',
  'content-range',
  'accept-ranges',
  'content-type',
  'last-modified',
  'x-static-large-object',
];

/**
 * Object storage as the server uses it. Browsers move the bytes with signed grants
 * (TempURL, FormPost) straight to storage; the server signs grants, assembles manifests,
 * reads byte ranges for downloads and deletes. Implementations: EmbeddedDriver (local disk,
 * served by this process) and SwiftDriver (an OpenStack Swift cluster).
 */
export interface StorageDriver {
  readonly kind: 'embedded' | 'swift';
  /** The account's storage URL as browsers reach it, e.g. `https://host/v1/AUTH_x`. */
  readonly accountUrl: string;
  /** The same account on other storage hosts (for spreading transfers over hosts). */
  readonly alternativeAccountUrls: readonly string[];

  signTempUrl(request: TempUrlRequest): SignedTempUrl;
  signFormPost(request: FormPostRequest): FormPostGrant;

  /** Creates the container if needed and (re)sets its CORS metadata. */
  ensureContainer(container: string, options?: ContainerOptions): Promise<void>;
  /**
   * Stores a manifest joining the segments; checks every object segment exists (and matches
   * the etag / size given). Throws StorageError 'invalid_manifest' listing the problems.
   */
  putManifest(
    location: ObjectLocation,
    segments: readonly ManifestSegment[],
    options?: PutManifestOptions,
  ): Promise<StoredManifest>;
  /**
   * The segments of a manifest as stored (Swift's `?multipart-manifest=get`): etags and sizes
   * filled in, ranges normalised. Null when the object is absent or not a manifest.
   */
  readManifest(location: ObjectLocation): Promise<ManifestSegment[] | null>;
  /** The object's properties, or null when it does not exist. */
  head(location: ObjectLocation): Promise<ObjectInfo | null>;
  /**
   * Streams the object's bytes (a manifest's joined segments), the whole object or one range.
   * Throws StorageError 'not_found', 'range_not_satisfiable' or (with `ifMatch`)
   * 'precondition_failed' before the first byte.
   */
  read(location: ObjectLocation, range?: ByteRange, options?: ReadOptions): Promise<Readable>;
  /**
   * Reads one small range whole into memory, with as few round trips as the store allows (a
   * tar of many small files reads one after the other); the same errors as `read`. Fewer bytes
   * than asked when the object ends first.
   */
  readBytes(location: ObjectLocation, range: ByteRange, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * Many small ranges read whole into one buffer at their places, in one go where the store can
   * (see `readPlaced`, which callers use: it falls back to `readBytes` for a store without it).
   */
  readBytesInto?(target: ArrayBuffer, reads: readonly PlacedRead[]): Promise<ArrayBuffer>;
  /**
   * Every object whose key starts with the prefix, in pages as storage answers them. Swift's
   * listings follow writes by moments (container updates are asynchronous): an object written
   * just now may be missing, or listed with its previous size and etag.
   */
  listObjects(container: string, keyPrefix: string): AsyncIterable<ListedObject>;
  /** Deletes the object; a manifest together with its segments unless `keepSegments`. */
  deleteObject(location: ObjectLocation, options?: DeleteOptions): Promise<DeleteResult>;
  /** Deletes every object whose key starts with the prefix (manifests with their segments). */
  deletePrefix(container: string, keyPrefix: string): Promise<DeleteResult>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

export type StorageErrorCode =
  | 'not_found'
  | 'range_not_satisfiable'
  | 'precondition_failed'
  | 'invalid_manifest'
  | 'invalid_name'
  | 'unauthorized'
  | 'unavailable'
  /** The storage volume is full (Swift's 507; ENOSPC or the free-space floor on the embedded store). */
  | 'insufficient_storage';

/** A storage failure with a stable code; match on `code`, never on the message. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** Per-segment problems of a refused manifest: [segment path, reason]. */
    readonly problems: readonly (readonly [string, string])[] = [],
  ) {
    super(message);
  }
}

/** Parses Swift's segment path form `/container/key` (as the client's slo call sends it). */
export function parseSegmentPath(path: string): ObjectLocation {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) {
    throw new StorageError('invalid_name', `segment path must be /container/object: ${path}`);
  }
  return { container: trimmed.slice(0, slash), key: trimmed.slice(slash + 1) };
}
