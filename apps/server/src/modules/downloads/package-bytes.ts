import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { TarMember } from '@filerunner/protocol';
import type { FileRow, PackageRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import {
  PlacedReadError,
  readPlaced,
  shortRead,
  StorageError,
  type ByteRange,
  type PlacedRead,
  type ObjectLocation,
  type StorageDriver,
} from '../../storage';
import { downloadMessages } from './download-messages';
import { entryHeader, layoutTar, piecesForRange, type TarLayout } from '@filerunner/transfer';
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
  /**
   * Entry headers built so far: a tar kept for a download's ranged requests builds each once
   * (for small files, building headers was a twentieth of serving them).
   */
  readonly headers: (Uint8Array | undefined)[];
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
  return { files: servable, written, mhl, layout, mtime, headers: [] };
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
  const headerOf = (index: number) => (tar.headers[index] ??= entryHeader(tar.layout, index));
  return piecesForRange(tar.layout, range, headerOf).map((piece) => {
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

/**
 * Small pieces (tar headers, small files) go out assembled in pieces of about this size: the
 * store reads a piece's files into one buffer with the headers already in place (on the embedded
 * store, one message to a worker and back), then it is one socket write.
 */
const PIECE_BYTES = 1024 * 1024;
/** A response reads at most about this many bytes ahead of the consumer: memory is bounded. */
const READ_AHEAD_BYTES = 3 * PIECE_BYTES;
/** Parts up to this size are read into a piece; a larger one is streamed when reached. */
const READ_AHEAD_MAX_BYTES = 256 * 1024;

/** What goes out next: an assembled piece being read, literal bytes as they are, or a large slice. */
type Piece =
  | {
      readonly kind: 'placed';
      readonly size: number;
      readonly slices: readonly FileSlice[];
      readonly filled: Promise<ArrayBuffer>;
    }
  | { readonly kind: 'bytes'; readonly data: Uint8Array }
  | { readonly kind: 'stream'; readonly part: FileSlice };

const partSize = (part: BodyPart) =>
  part.kind === 'bytes' ? part.data.byteLength : part.range.length;
const isSmall = (part: BodyPart) =>
  part.kind === 'bytes' || part.range.length <= READ_AHEAD_MAX_BYTES;

/**
 * The piece of `parts` starting at `from`, and where the next begins: a large slice alone,
 * literal bytes of a piece's size or more alone, else the small parts that fit in one piece,
 * their reads started into one buffer.
 */
function nextPiece(
  storage: StorageDriver,
  parts: readonly BodyPart[],
  from: number,
): { piece: Piece; end: number } {
  const first = parts[from]!;
  if (!isSmall(first))
    return { piece: { kind: 'stream', part: first as FileSlice }, end: from + 1 };
  if (first.kind === 'bytes' && first.data.byteLength >= PIECE_BYTES) {
    return { piece: first, end: from + 1 };
  }
  let end = from;
  let bytes = 0;
  while (
    end < parts.length &&
    isSmall(parts[end]!) &&
    bytes + partSize(parts[end]!) <= PIECE_BYTES
  ) {
    bytes += partSize(parts[end]!);
    end++;
  }
  const target = new ArrayBuffer(bytes);
  const view = new Uint8Array(target);
  const reads: PlacedRead[] = [];
  const slices: FileSlice[] = [];
  let at = 0;
  for (const part of parts.slice(from, end)) {
    if (part.kind === 'bytes') {
      view.set(part.data, at);
    } else if (part.range.length > 0) {
      const options = part.etag ? { ifMatch: part.etag } : {};
      reads.push({ location: part.location, range: part.range, options, at });
      slices.push(part);
    }
    at += partSize(part);
  }
  const filled = reads.length > 0 ? readPlaced(storage, target, reads) : Promise.resolve(target);
  // Awaited when the consumer gets there; until then (or if it never does) not unhandled.
  filled.catch(() => undefined);
  return { piece: { kind: 'placed', size: bytes, slices, filled }, end };
}

/**
 * Streams the parts one after the other, opening each large object only when the consumer
 * reaches it and reading it only as fast as the consumer takes it, so memory stays flat however
 * large the range. Small parts are assembled into pieces read a few ahead: a package of ten
 * thousand small files is otherwise bound by one file-system round trip, one promise and one
 * socket write after another. The first bytes are read here, so storage failing at once rejects
 * before any response header (a clean error answer, not a cut body); a later failure destroys
 * the stream (the client sees a short body and retries) and is logged. Destroying the stream
 * closes the object being read; pieces being read finish on their worker and are dropped.
 */
export async function streamParts(
  storage: StorageDriver,
  parts: readonly BodyPart[],
  log: FastifyBaseLogger,
): Promise<BodyStream> {
  let out = 0;
  let current: Readable | null = null;
  let abandoned = false;

  // parts[next] is the first part not yet in a piece; `ahead` holds the pieces not yet sent.
  let next = 0;
  const ahead: Piece[] = [];
  let aheadBytes = 0;
  const readAhead = () => {
    while (next < parts.length && (ahead.length === 0 || aheadBytes < READ_AHEAD_BYTES)) {
      const { piece, end } = nextPiece(storage, parts, next);
      next = end;
      ahead.push(piece);
      // A large part is streamed when reached; nothing beyond it is read before that.
      if (piece.kind === 'stream') return;
      aheadBytes += piece.kind === 'placed' ? piece.size : piece.data.byteLength;
    }
  };

  const failed = (error: unknown, part: FileSlice): unknown => {
    if (error instanceof StorageError && error.code === 'precondition_failed') {
      log.error(
        {
          err: error,
          object: `${part.location.container}/${part.location.key}`,
          file: part.userPath,
        },
        'download: a file changed in storage since the package was sent',
      );
      return fileChanged(part);
    }
    log.error(
      // (Not `key`: the logger redacts every field of that name.)
      { err: error, object: `${part.location.container}/${part.location.key}`, range: part.range },
      'download: storage read failed',
    );
    return error;
  };

  async function* generate(): AsyncGenerator<Uint8Array> {
    for (;;) {
      readAhead();
      const piece = ahead.shift();
      if (!piece) return;
      if (piece.kind === 'bytes') {
        aheadBytes -= piece.data.byteLength;
        out += piece.data.byteLength;
        yield piece.data;
        continue;
      }
      if (piece.kind === 'placed') {
        aheadBytes -= piece.size;
        let filled: ArrayBuffer;
        try {
          filled = await piece.filled;
        } catch (error) {
          // Reading stops with an error when the client left; that is no storage failure.
          if (abandoned) return;
          if (!(error instanceof PlacedReadError)) throw error;
          throw failed(error.cause, piece.slices[error.index]!);
        }
        // The next pieces are asked for before this one goes out: the store reads while the
        // socket writes.
        readAhead();
        out += piece.size;
        yield Buffer.from(filled);
        continue;
      }
      const { part } = piece;
      try {
        current = await readSlice(storage, part);
        let read = 0;
        for await (const chunk of current as AsyncIterable<Uint8Array>) {
          read += chunk.byteLength;
          out += chunk.byteLength;
          yield chunk;
        }
        if (read !== part.range.length) throw shortRead(read, part.range.length);
      } catch (error) {
        if (abandoned) return;
        throw failed(error, part);
      } finally {
        current = null;
      }
    }
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
