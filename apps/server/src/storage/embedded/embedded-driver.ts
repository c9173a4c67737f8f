import type { Readable } from 'node:stream';
import { clampRange } from '../byte-range';
import { signFormPostGrant, signTempUrlGrant, type GrantSigner } from '../grants';
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
import { PlacedReadError, shortRead, type PlacedRead } from '../placed-reads';
import { ObjectWriteError, type ObjectRecord } from './object-file';
import { MAX_OBJECT_BYTES, ObjectFileStore } from './object-file-store';
import { etagMatches } from './conditional';
import { invalidContainerName, invalidObjectName } from './object-path';
import {
  SegmentError,
  buildManifest,
  objectEtag,
  objectLength,
  openObjectStream,
  readStoredSegments,
  type StoredSegment,
} from './slo-manifest';

export interface EmbeddedDriverOptions {
  /** The store's directory, `<DATA_DIR>/objects` (the same one the plugin serves). */
  readonly root: string;
  /** e.g. `AUTH_filerunner`. */
  readonly account: string;
  readonly tempUrlKey: string;
  /** The app's public URL; the store is served by the same process under `/v1/`. */
  readonly publicUrl: string;
  readonly allowedOrigin: string;
}

function assertValid(location: ObjectLocation): void {
  const problem = invalidContainerName(location.container) ?? invalidObjectName(location.key);
  if (problem) throw new StorageError('invalid_name', problem);
}

/**
 * Throws what reading `range` of the object whose header is `record` (null: absent) gives: not
 * found, another object than the one asked for (If-Match), or a range outside it.
 */
function checkSlice(
  location: ObjectLocation,
  range: ByteRange,
  options: ReadOptions,
  record: ObjectRecord | null,
): void {
  if (!record) {
    throw new StorageError('not_found', `${location.container}/${location.key} not found`);
  }
  if (options.ifMatch !== undefined && !etagMatches(options.ifMatch, objectEtag(record))) {
    throw new StorageError(
      'precondition_failed',
      `${location.container}/${location.key} is no longer the object with etag ${options.ifMatch}`,
    );
  }
  if (!record.manifest && !clampRange(range, record.size)) {
    throw new StorageError('range_not_satisfiable', `range outside 0-${record.size}`);
  }
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function infoOf(record: ObjectRecord): ObjectInfo {
  return {
    sizeBytes: objectLength(record),
    etag: objectEtag(record),
    contentType: record.contentType,
    lastModified: new Date(record.lastModified),
    isManifest: record.manifest !== undefined,
    metadata: record.metadata,
    deleteAt: record.deleteAt ?? null,
  };
}

/**
 * StorageDriver over the embedded store's files. Grants it signs are for the embedded store
 * served by this process (see embeddedStorePlugin); the rest works on the files directly.
 */
export class EmbeddedDriver implements StorageDriver {
  readonly kind = 'embedded' as const;
  readonly accountUrl: string;
  readonly alternativeAccountUrls: readonly string[] = [];
  private readonly store: ObjectFileStore;
  private readonly signer: GrantSigner;

  constructor(private readonly options: EmbeddedDriverOptions) {
    this.store = new ObjectFileStore(options.root, options.account);
    this.accountUrl = `${options.publicUrl.replace(/\/+$/, '')}/v1/${options.account}`;
    this.signer = {
      accountUrl: this.accountUrl,
      alternativeAccountUrls: this.alternativeAccountUrls,
      tempUrlKey: options.tempUrlKey,
    };
  }

  /** Creates the store's directories and removes temp files of crashed writers. */
  async prepare(): Promise<void> {
    await this.store.prepare();
  }

  signTempUrl(request: TempUrlRequest): SignedTempUrl {
    return signTempUrlGrant(this.signer, request);
  }

  signFormPost(request: FormPostRequest): FormPostGrant {
    return signFormPostGrant(this.signer, request);
  }

  async ensureContainer(container: string, options: ContainerOptions = {}): Promise<void> {
    const problem = invalidContainerName(container);
    if (problem) throw new StorageError('invalid_name', problem);
    await this.store.writeContainer(container, {
      allowedOrigins: options.allowedOrigins ?? [this.options.allowedOrigin],
      exposedHeaders: options.exposedHeaders ?? DEFAULT_EXPOSED_HEADERS,
      ...(options.maxAgeSeconds !== undefined ? { maxAgeSeconds: options.maxAgeSeconds } : {}),
    });
  }

  async putManifest(
    location: ObjectLocation,
    segments: readonly ManifestSegment[],
    options: PutManifestOptions = {},
  ): Promise<StoredManifest> {
    assertValid(location);
    if (!(await this.store.readContainer(location.container))) {
      throw new StorageError('not_found', `container ${location.container} does not exist`);
    }
    const manifest = await buildManifest(this.store, segments, location);
    // A manifest is a few kilobytes that finish a file whose segments are stored: it may use the
    // floor kept for the database, but not bytes the volume does not have.
    await this.store
      .writeObject(
        location,
        {
          key: location.key,
          contentType: options.contentType ?? 'application/octet-stream',
          metadata: lowerCaseKeys(options.metadata ?? {}),
          manifest: { sloEtag: manifest.sloEtag, sloSize: manifest.sloSize },
        },
        manifest.json,
        { maxBytes: MAX_OBJECT_BYTES },
      )
      .catch((error: unknown) => {
        if (error instanceof ObjectWriteError && error.reason === 'no_space') {
          throw new StorageError('insufficient_storage', error.message);
        }
        throw error;
      });
    return { etag: manifest.sloEtag, sizeBytes: manifest.sloSize };
  }

  async head(location: ObjectLocation): Promise<ObjectInfo | null> {
    assertValid(location);
    const record = await this.store.statObject(location);
    return record ? infoOf(record) : null;
  }

  async read(
    location: ObjectLocation,
    range?: ByteRange,
    options: ReadOptions = {},
  ): Promise<Readable> {
    assertValid(location);
    const opened = await this.store.openObject(location);
    if (!opened)
      throw new StorageError('not_found', `${location.container}/${location.key} not found`);
    // Checked on the opened file: the bytes read are those of the version whose etag matched.
    if (options.ifMatch !== undefined && !etagMatches(options.ifMatch, objectEtag(opened.record))) {
      await opened.handle.close();
      throw new StorageError(
        'precondition_failed',
        `${location.container}/${location.key} is no longer the object with etag ${options.ifMatch}`,
      );
    }
    const total = objectLength(opened.record);
    const slice = range ? clampRange(range, total) : { offset: 0, length: total };
    if (!slice) {
      await opened.handle.close();
      throw new StorageError('range_not_satisfiable', `range outside 0-${total}`);
    }
    try {
      return await openObjectStream(this.store, opened, slice.offset, slice.length);
    } catch (error) {
      if (error instanceof SegmentError) throw new StorageError('not_found', error.message);
      throw error;
    }
  }

  async readBytes(
    location: ObjectLocation,
    range: ByteRange,
    options: ReadOptions = {},
  ): Promise<Uint8Array> {
    assertValid(location);
    const slice = await this.store.readObjectSlice(location, range.offset, range.length);
    checkSlice(location, range, options, slice?.record ?? null);
    // A manifest's bytes are its segments': read as any other (it opens the object again).
    if (!slice!.data) return collect(await this.read(location, range, options));
    return slice!.data;
  }

  /** The embedded store reads the whole batch on a worker thread, in one message each way. */
  async readBytesInto(target: ArrayBuffer, reads: readonly PlacedRead[]): Promise<ArrayBuffer> {
    reads.forEach((read, index) => {
      try {
        assertValid(read.location);
      } catch (error) {
        throw new PlacedReadError(index, error);
      }
    });
    const answer = await this.store.readObjectSlicesInto(
      target,
      reads.map((read) => ({
        location: read.location,
        offset: read.range.offset,
        length: read.range.length,
        at: read.at,
      })),
    );
    const view = new Uint8Array(answer.target);
    for (const [index, read] of reads.entries()) {
      try {
        const slice = answer.slices[index]!;
        if (slice instanceof Error) throw slice;
        checkSlice(read.location, read.range, read.options ?? {}, slice?.record ?? null);
        let placed = slice!.length;
        if (placed === undefined) {
          const bytes = await collect(await this.read(read.location, read.range, read.options));
          view.set(bytes.subarray(0, view.length - read.at), read.at);
          placed = bytes.byteLength;
        }
        if (placed !== read.range.length) throw shortRead(placed, read.range.length);
      } catch (error) {
        throw new PlacedReadError(index, error);
      }
    }
    return answer.target;
  }

  async readManifest(location: ObjectLocation): Promise<ManifestSegment[] | null> {
    assertValid(location);
    const stored = await this.storedSegments(location);
    return stored && stored.map(segmentInOurWords);
  }

  /** The manifest's segment list as Swift stores it, or null. */
  private async storedSegments(location: ObjectLocation): Promise<StoredSegment[] | null> {
    const opened = await this.store.openObject(location);
    if (!opened) return null;
    if (!opened.record.manifest) {
      await opened.handle.close();
      return null;
    }
    return readStoredSegments(opened);
  }

  async deleteObject(location: ObjectLocation, options: DeleteOptions = {}): Promise<DeleteResult> {
    assertValid(location);
    if (options.keepSegments) {
      const removed = await this.store.removeObject(location);
      return { deleted: removed ? 1 : 0, notFound: removed ? 0 : 1 };
    }
    const result = { deleted: 0, notFound: 0 };
    await this.deleteWithSegments(location, result, 0);
    return result;
  }

  async *listObjects(container: string, keyPrefix: string): AsyncIterable<ListedObject> {
    const problem = invalidContainerName(container);
    if (problem) throw new StorageError('invalid_name', problem);
    for await (const record of this.store.listObjects(container, keyPrefix)) {
      yield {
        key: record.key,
        sizeBytes: objectLength(record),
        etag: objectEtag(record),
        isManifest: record.manifest !== undefined,
      };
    }
  }

  /** Swift's `?multipart-manifest=delete`: segments (recursively) first, then the manifest. */
  private async deleteWithSegments(
    location: ObjectLocation,
    result: { deleted: number; notFound: number },
    depth: number,
  ): Promise<void> {
    const segments = depth < 10 ? await this.storedSegments(location) : null;
    for (const segment of segments ?? []) {
      if (!('name' in segment)) continue;
      await this.deleteWithSegments(parseSegmentPath(segment.name), result, depth + 1);
    }
    if (await this.store.removeObject(location)) result.deleted++;
    else result.notFound++;
  }

  async deletePrefix(container: string, keyPrefix: string): Promise<DeleteResult> {
    const problem = invalidContainerName(container);
    if (problem) throw new StorageError('invalid_name', problem);
    const keys: string[] = [];
    for await (const record of this.store.listObjects(container, keyPrefix)) keys.push(record.key);
    const result = { deleted: 0, notFound: 0 };
    // A segment listed here may be gone already with its manifest; it counts as not found.
    for (const key of keys) await this.deleteWithSegments({ container, key }, result, 0);
    return result;
  }

  async close(): Promise<void> {}
}

function segmentInOurWords(segment: StoredSegment): ManifestSegment {
  if ('data' in segment) return { data: Buffer.from(segment.data, 'base64') };
  const [first, last] = (segment.range ?? '').split('-').map(Number);
  return {
    object: parseSegmentPath(segment.name),
    etag: segment.hash,
    sizeBytes: segment.bytes,
    ...(segment.range ? { range: { offset: first!, length: last! - first! + 1 } } : {}),
  };
}

function lowerCaseKeys(metadata: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k.toLowerCase(), v]));
}
