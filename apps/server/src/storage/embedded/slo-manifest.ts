import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  StorageError,
  parseSegmentPath,
  type ByteRange,
  type ManifestSegment,
  type ObjectLocation,
} from '../storage-driver';
import {
  READ_CHUNK_BYTES,
  streamObjectBytes,
  type ObjectRecord,
  type OpenObjectFile,
} from './object-file';
import type { ObjectFileStore } from './object-file-store';
import { invalidContainerName, invalidObjectName } from './object-path';

/**
 * Static large objects as Swift's slo middleware keeps them: the manifest object's bytes are
 * the JSON list below (what `?multipart-manifest=get` returns), and a GET joins the segments.
 */
export type StoredSegment =
  | {
      readonly name: string;
      readonly bytes: number;
      readonly hash: string;
      readonly content_type: string;
      readonly last_modified: string;
      /** Inclusive `first-last`, normalised against the segment's size. */
      readonly range?: string;
      readonly sub_slo?: true;
    }
  | { readonly data: string };

/** Swift's stock SLO limits (proxy-server.conf [filter:slo]). */
export const MAX_MANIFEST_SEGMENTS = 1000;
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
const MAX_NESTING_DEPTH = 10;

/** A joined object could not be read: a segment vanished or changed since the manifest PUT. */
export class SegmentError extends Error {
  override readonly name = 'SegmentError';
}

export interface BuiltManifest {
  readonly json: Buffer;
  readonly sloEtag: string;
  readonly sloSize: number;
}

/** Bytes a GET of the object returns (a manifest: its segments joined). */
export function objectLength(record: ObjectRecord): number {
  return record.manifest ? record.manifest.sloSize : record.size;
}

/** The ETag value Swift reports: MD5 of the bytes, or of the segments' etags for a manifest. */
export function objectEtag(record: ObjectRecord): string {
  return record.manifest ? record.manifest.sloEtag : record.etag;
}

function segmentName(location: ObjectLocation): string {
  return `/${location.container}/${location.key}`;
}

function swiftTimestamp(ms: number): string {
  // Swift writes last_modified as %Y-%m-%dT%H:%M:%S.%f (microseconds, no zone).
  return new Date(ms).toISOString().replace('Z', '000');
}

function invalidInput(segments: readonly ManifestSegment[], self: ObjectLocation): string[] {
  const errors: string[] = [];
  let objectSegments = 0;
  segments.forEach((segment, index) => {
    if ('data' in segment) {
      if (segment.data.length < 1) {
        errors.push(`Index ${index}: too small; each segment must be at least 1 byte.`);
      }
      return;
    }
    objectSegments++;
    const { object, sizeBytes, range } = segment;
    const nameProblem = invalidContainerName(object.container) ?? invalidObjectName(object.key);
    if (nameProblem) errors.push(`Index ${index}: ${nameProblem}`);
    else if (object.container === self.container && object.key === self.key) {
      errors.push(`Index ${index}: manifest must not include itself as a segment`);
    }
    if (sizeBytes != null && (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0)) {
      errors.push(`Index ${index}: invalid size_bytes`);
    } else if (sizeBytes != null && sizeBytes < 1 && index !== segments.length - 1) {
      errors.push(`Index ${index}: too small; each segment must be at least 1 byte.`);
    }
    if (
      range &&
      (!Number.isSafeInteger(range.offset) ||
        !Number.isSafeInteger(range.length) ||
        range.offset < 0 ||
        range.length < 1)
    ) {
      errors.push(`Index ${index}: invalid range`);
    }
  });
  if (segments.length > 0 && objectSegments === 0) {
    errors.push('Inline data segments require at least one object-backed segment.');
  }
  if (objectSegments > MAX_MANIFEST_SEGMENTS) {
    errors.push(`Number of object-backed segments must be <= ${MAX_MANIFEST_SEGMENTS}`);
  }
  return errors;
}

/**
 * Checks a manifest the way Swift's slo middleware does on PUT (every object segment exists,
 * matches the etag and size given, ranges fit) and returns what to store.
 */
export async function buildManifest(
  store: ObjectFileStore,
  segments: readonly ManifestSegment[],
  self: ObjectLocation,
): Promise<BuiltManifest> {
  const errors = invalidInput(segments, self);
  if (errors.length > 0) throw new StorageError('invalid_manifest', errors.join('\n'));

  const problems: [string, string][] = [];
  const stored: StoredSegment[] = [];
  const etagParts: string[] = [];
  let sloSize = 0;
  for (const [index, segment] of segments.entries()) {
    if ('data' in segment) {
      const data = Buffer.from(segment.data);
      stored.push({ data: data.toString('base64') });
      etagParts.push(createHash('md5').update(data).digest('hex'));
      sloSize += data.length;
      continue;
    }
    const name = segmentName(segment.object);
    const record = await store.statObject(segment.object);
    if (!record) {
      problems.push([name, '404 Not Found']);
      continue;
    }
    const size = objectLength(record);
    const etag = objectEtag(record);
    let length = size;
    let range: string | undefined;
    if (segment.range) {
      const end = Math.min(segment.range.offset + segment.range.length, size);
      if (segment.range.offset >= size) problems.push([name, 'Unsatisfiable Range']);
      else if (segment.range.offset > 0 || end < size) {
        range = `${segment.range.offset}-${end - 1}`;
        length = end - segment.range.offset;
      }
    }
    if (length < 1 && index !== segments.length - 1) {
      problems.push([name, 'Too small; each segment must be at least 1 byte.']);
    }
    if (segment.sizeBytes != null && segment.sizeBytes !== size)
      problems.push([name, 'Size Mismatch']);
    if (segment.etag != null && segment.etag.replace(/"/g, '') !== etag) {
      problems.push([name, 'Etag Mismatch']);
    }
    stored.push({
      name,
      bytes: size,
      hash: etag,
      content_type: record.contentType,
      last_modified: swiftTimestamp(record.lastModified),
      ...(range ? { range } : {}),
      ...(record.manifest ? { sub_slo: true as const } : {}),
    });
    etagParts.push(range ? `${etag}:${range};` : etag);
    sloSize += Math.max(length, 0);
  }
  if (problems.length > 0) {
    throw new StorageError(
      'invalid_manifest',
      problems.map(([name, reason]) => `${name}, ${reason}`).join('\n'),
      problems,
    );
  }
  const json = Buffer.from(JSON.stringify(stored), 'utf8');
  if (json.length > MAX_MANIFEST_BYTES) {
    throw new StorageError('invalid_manifest', `Manifest File > ${MAX_MANIFEST_BYTES} bytes`);
  }
  const sloEtag = createHash('md5').update(etagParts.join(''), 'ascii').digest('hex');
  return { json, sloEtag, sloSize };
}

/** Reads a manifest object's stored segment list (bounded by MAX_MANIFEST_BYTES). */
export async function readStoredSegments(opened: OpenObjectFile): Promise<StoredSegment[]> {
  try {
    const buffer = Buffer.alloc(opened.record.size);
    await opened.handle.read(buffer, 0, buffer.length, opened.dataOffset);
    return JSON.parse(buffer.toString('utf8')) as StoredSegment[];
  } finally {
    await opened.handle.close();
  }
}

function parseStoredRange(range: string | undefined, bytes: number): ByteRange {
  if (!range) return { offset: 0, length: bytes };
  const [first = '0', last = '0'] = range.split('-');
  return { offset: Number(first), length: Number(last) - Number(first) + 1 };
}

/** The bytes [offset, offset + length) of an object, joining segments when it is a manifest. */
async function* objectBytes(
  store: ObjectFileStore,
  opened: OpenObjectFile,
  offset: number,
  length: number,
  depth: number,
): AsyncGenerator<Buffer> {
  if (!opened.record.manifest) {
    for await (const chunk of streamObjectBytes(opened, offset, length)) yield chunk as Buffer;
    return;
  }
  if (depth > MAX_NESTING_DEPTH) {
    await opened.handle.close();
    throw new SegmentError('Max recursion depth exceeded on manifest');
  }
  const segments = await readStoredSegments(opened);
  let position = 0;
  const end = offset + length;
  for (const segment of segments) {
    if (position >= end) break;
    if ('data' in segment) {
      const data = Buffer.from(segment.data, 'base64');
      const from = Math.max(offset - position, 0);
      const to = Math.min(end - position, data.length);
      if (from < to) yield data.subarray(from, to);
      position += data.length;
      continue;
    }
    const slice = parseStoredRange(segment.range, segment.bytes);
    const from = Math.max(offset - position, 0);
    const to = Math.min(end - position, slice.length);
    position += slice.length;
    if (from >= to) continue;
    const segmentFile = await store.openObject(parseSegmentPath(segment.name));
    if (!segmentFile) throw new SegmentError(`segment ${segment.name} is gone`);
    const { record } = segmentFile;
    if (objectEtag(record) !== segment.hash || objectLength(record) !== segment.bytes) {
      await segmentFile.handle.close();
      throw new SegmentError(`segment ${segment.name} changed since the manifest was stored`);
    }
    yield* objectBytes(store, segmentFile, slice.offset + from, to - from, depth + 1);
  }
}

/**
 * A stream of the object's bytes in [offset, offset + length). A plain object is one file
 * read; a manifest reads its segments one after another. For a manifest the first chunk is
 * read before this returns, so a broken first segment fails before any header is sent
 * (Swift answers 409 then); a later broken segment cuts the body short, as in Swift.
 */
export async function openObjectStream(
  store: ObjectFileStore,
  opened: OpenObjectFile,
  offset: number,
  length: number,
): Promise<Readable> {
  if (!opened.record.manifest) return streamObjectBytes(opened, offset, length);
  const chunks = objectBytes(store, opened, offset, length, 0);
  const first = await chunks.next();
  async function* all(): AsyncGenerator<Buffer> {
    try {
      if (!first.done) yield first.value;
      yield* chunks;
    } finally {
      await chunks.return(undefined);
    }
  }
  return Readable.from(all(), { objectMode: false, highWaterMark: READ_CHUNK_BYTES });
}
