import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { TarMember } from '@filerunner/protocol';
import type { FileRow, PackageRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import {
  StorageError,
  type ByteRange,
  type ObjectLocation,
  type StorageDriver,
} from '../../storage';
import { downloadMessages } from './download-messages';
import { layoutTar, piecesForRange, type TarLayout } from '@filerunner/transfer';
import { packageMhlBuild, type MhlMember, type PackageMhl } from '../mhl/package-mhl';

/** A stored file with the object it lives in (its key is known). */
export type ServableFile = FileRow & { objectKey: string };

/**
 * The package's tar: its files in entry order, then the members the server writes (its ASC MHL),
 * and where each byte of the stream comes from.
 */
export interface PackageTar {
  readonly files: readonly ServableFile[];
  /** Entries after `files`, whose bytes the server holds. */
  readonly written: readonly MhlMember[];
  /** The package's hash list and chain (in `written` unless the package has its own folder). */
  readonly mhl: PackageMhl;
  readonly layout: TarLayout;
  /** Every header's mtime: the package's send time, Unix seconds. */
  readonly mtime: number;
}

/**
 * Lays out the tar of a package's stored files, then its ASC MHL (`mhlMembers`). Entries are in
 * user-path order (by code unit, so no database collation can change it) with the package's send
 * time as every mtime: the bytes depend only on the stored list, so ranged chunks fetched at
 * different times, from different nodes, fit together. The MHL is written here (or found among
 * the recent ones), once for each opening of a grant, and every range of it slices those bytes.
 */
export async function packageTar(
  pkg: PackageRow,
  files: readonly FileRow[],
  hostname: string,
): Promise<PackageTar> {
  const servable = files
    .filter((f): f is ServableFile => f.objectKey !== null)
    .sort((a, b) => (a.userPath < b.userPath ? -1 : a.userPath > b.userPath ? 1 : a.id - b.id));
  const mtime = Math.floor(pkg.sentAt.getTime() / 1000);
  const { mhl, members: written } = await packageMhlBuild(pkg, servable, hostname);
  const layout = layoutTar([
    ...servable.map((f) => ({ path: f.userPath, size: f.size, mtime })),
    ...written.map((m) => ({ path: m.path, size: m.bytes.byteLength, mtime })),
  ]);
  return { files: servable, written, mhl, layout, mtime };
}

/** The tar's members in order, as the download grant lists them for the download engine. */
export function tarMembers(tar: PackageTar): TarMember[] {
  return [
    ...tar.files.map((f) => ({ path: f.userPath, size: f.size, xxh128: f.xxh128 })),
    ...tar.written.map((m) => ({ path: m.path, size: m.bytes.byteLength, xxh128: m.xxh128 })),
  ];
}

/**
 * A strong validator for one grant's bytes: the same package, kind, size and objects give the
 * same tag on every node, and a re-upload (new etags) gives another.
 */
export function contentTag(
  pkg: PackageRow,
  fileId: number | null,
  size: number,
  files: readonly ServableFile[],
  written: readonly MhlMember[] = [],
): string {
  const hash = createHash('sha256').update(
    JSON.stringify([
      pkg.id,
      fileId ?? 'tar',
      size,
      files.map((f) => [f.userPath, f.etag ?? f.objectKey, f.slabStart]),
      // The MHL names the server's host: another address gives other bytes of the same size.
      ...(written.length > 0 ? [written.map((m) => [m.path, m.xxh128])] : []),
    ]),
  );
  return `"${hash.digest('hex').slice(0, 32)}"`;
}

/** Bytes of a stored file: a slice of the object it lives in, as it was when it was recorded. */
interface FileSlice {
  readonly kind: 'object';
  readonly location: ObjectLocation;
  readonly range: ByteRange;
  /** The file's path in the package, for the error and the log when its object changed. */
  readonly userPath: string;
  /** The object's etag recorded at upload: it is read only while storage still reports it. */
  readonly etag: string | null;
}

/** Where bytes [offset, offset + length) of a file lie: its own object, or a range inside a slab. */
function fileSlice(pkg: PackageRow, file: ServableFile, offset: number, length: number): FileSlice {
  return {
    kind: 'object',
    location: { container: pkg.container, key: file.objectKey },
    range: { offset: (file.slabStart ?? 0) + offset, length },
    userPath: file.userPath,
    etag: file.etag,
  };
}

/** A part of a response body: literal bytes, or a slice of a stored object. */
type BodyPart = { readonly kind: 'bytes'; readonly data: Uint8Array } | FileSlice;

/** The parts of tar bytes [range.offset, range.offset + range.length). */
export function tarParts(pkg: PackageRow, tar: PackageTar, range: ByteRange): BodyPart[] {
  return piecesForRange(tar.layout, range).map((piece) => {
    if (piece.kind === 'bytes') return piece;
    const file = tar.files[piece.entry];
    if (file) return fileSlice(pkg, file, piece.offset, piece.length);
    const member = tar.written[piece.entry - tar.files.length]!;
    return {
      kind: 'bytes',
      data: member.bytes.subarray(piece.offset, piece.offset + piece.length),
    } as const;
  });
}

/** The parts of bytes `range` of one file. */
export function fileParts(pkg: PackageRow, file: ServableFile, range: ByteRange): BodyPart[] {
  if (range.length === 0) return [];
  return [fileSlice(pkg, file, range.offset, range.length)];
}

/**
 * Opens a file's slice, on the condition that its object is still the one recorded: an object
 * replaced since (by an upload grant still valid after sending, or by hand) would give other
 * bytes under the download's old ETag, or a shorter object cut the tar and shift what follows.
 */
function readSlice(storage: StorageDriver, part: FileSlice): Promise<Readable> {
  return storage.read(part.location, part.range, part.etag ? { ifMatch: part.etag } : {});
}

/** The answer for a file whose object changed since it was recorded; it names the file. */
function fileChanged(part: FileSlice): ApiError {
  return ApiError.detail(409, 'conflict', downloadMessages.fileChanged(part.userPath));
}

/** A response body under way; `bytesOut` grows as the consumer takes bytes. */
export interface BodyStream {
  readonly stream: Readable;
  bytesOut(): number;
}

/** Small object parts are read at most this many parts ahead of the consumer, concurrently… */
const READ_AHEAD_PARTS = 32;
/** …and at most this many bytes: with the batch being filled, a response's memory is bounded. */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;
/** Parts up to this size are read ahead whole; a larger one is streamed when reached. */
const READ_AHEAD_MAX_BYTES = 256 * 1024;
/**
 * Small pieces (tar headers, small files) go out together in writes of about this size: one
 * socket write per megabyte instead of two per file.
 */
const COALESCE_BYTES = 1024 * 1024;

/** Reads a whole (small) part in one call to storage, checking it has every byte. */
async function readWhole(storage: StorageDriver, part: FileSlice): Promise<Uint8Array> {
  const bytes = await storage.readBytes(
    part.location,
    part.range,
    part.etag ? { ifMatch: part.etag } : {},
  );
  if (bytes.byteLength !== part.range.length) throw shortRead(bytes.byteLength, part.range.length);
  return bytes;
}

// A short object would shift every later byte and still look like a finished response.
const shortRead = (read: number, expected: number) =>
  new Error(`storage gave ${read} of ${expected} bytes`);

/**
 * Streams the parts one after the other, opening each large object only when the consumer
 * reaches it and reading it only as fast as the consumer takes it, so memory stays flat however
 * large the range. Small objects are read a few parts ahead, concurrently, and small pieces are
 * sent together: a package of ten thousand small files is otherwise bound by one file-system round
 * trip and one socket write after another. The first bytes are read here, so storage failing at
 * once rejects before any response header (a clean error answer, not a cut body); a later failure
 * destroys the stream (the client sees a short body and retries) and is logged. Destroying the
 * stream closes the object being read.
 */
export async function streamParts(
  storage: StorageDriver,
  parts: readonly BodyPart[],
  log: FastifyBaseLogger,
): Promise<BodyStream> {
  let out = 0;
  let current: Readable | null = null;
  let abandoned = false;

  // Read-ahead: parts[next] is the first part not yet considered; `ahead` holds parts being read.
  let next = 0;
  const ahead = new Map<number, Promise<Uint8Array>>();
  let aheadBytes = 0;
  const readAhead = () => {
    // Refilled half the window at a time, so storage gets reads in batches (the embedded store
    // hands each batch to a worker in one message).
    if (ahead.size > READ_AHEAD_PARTS / 2) return;
    for (; next < parts.length && ahead.size < READ_AHEAD_PARTS; next++) {
      const part = parts[next]!;
      if (part.kind === 'bytes') continue;
      // A large part is streamed when reached; nothing beyond it is read before that.
      if (part.range.length > READ_AHEAD_MAX_BYTES) break;
      if (ahead.size > 0 && aheadBytes + part.range.length > READ_AHEAD_BYTES) break;
      const reading = readWhole(storage, part);
      // Awaited when the consumer gets there; until then (or if it never does) not unhandled.
      reading.catch(() => undefined);
      ahead.set(next, reading);
      aheadBytes += part.range.length;
    }
  };

  let batch: Uint8Array[] = [];
  let batched = 0;
  const flush = (): Uint8Array => {
    const data = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched);
    out += batched;
    batch = [];
    batched = 0;
    return data;
  };

  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const [index, part] of parts.entries()) {
      if (next <= index) next = index + 1;
      readAhead();
      if (part.kind === 'bytes') {
        batch.push(part.data);
        batched += part.data.byteLength;
        if (batched >= COALESCE_BYTES) yield flush();
        continue;
      }
      try {
        const buffered = ahead.get(index);
        if (buffered) {
          ahead.delete(index);
          aheadBytes -= part.range.length;
          const bytes = await buffered;
          batch.push(bytes);
          batched += bytes.byteLength;
          if (batched >= COALESCE_BYTES) yield flush();
          continue;
        }
        // Opened before the bytes waiting go out, so a changed first object is still a clean error.
        current = await readSlice(storage, part);
        if (batched > 0) yield flush();
        let read = 0;
        for await (const chunk of current as AsyncIterable<Uint8Array>) {
          read += chunk.byteLength;
          out += chunk.byteLength;
          yield chunk;
        }
        if (read !== part.range.length) throw shortRead(read, part.range.length);
      } catch (error) {
        // Reading stops with an error when the client left; that is no storage failure.
        if (abandoned) return;
        if (error instanceof StorageError && error.code === 'precondition_failed') {
          log.error(
            {
              err: error,
              object: `${part.location.container}/${part.location.key}`,
              file: part.userPath,
            },
            'download: a file changed in storage since the package was sent',
          );
          throw fileChanged(part);
        }
        log.error(
          // (Not `key`: the logger redacts every field of that name.)
          {
            err: error,
            object: `${part.location.container}/${part.location.key}`,
            range: part.range,
          },
          'download: storage read failed',
        );
        throw error;
      } finally {
        current = null;
      }
    }
    if (batched > 0) yield flush();
  }
  const chunks = generate();
  const first = await chunks.next();
  async function* primed(): AsyncGenerator<Uint8Array> {
    if (first.done) return;
    yield first.value;
    yield* chunks;
  }
  const stream = Readable.from(primed(), { objectMode: false, highWaterMark: 256 * 1024 });
  // A client that goes away must not leave an object open while the generator waits on it.
  stream.once('close', () => {
    abandoned = !stream.readableEnded;
    (current as Readable | null)?.destroy();
  });
  return { stream, bytesOut: () => out };
}
