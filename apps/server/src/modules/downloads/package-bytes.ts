import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ByteRange, ObjectLocation, StorageDriver } from '../../storage';
import type { FileRow, PackageRow } from './downloads.repository';
import { layoutTar, piecesForRange, type TarLayout } from './tar-layout';

/** A stored file with the object it lives in (its key is known). */
export type ServableFile = FileRow & { objectKey: string };

/** The package's tar: its files in entry order and where each byte of the stream comes from. */
export interface PackageTar {
  readonly files: readonly ServableFile[];
  readonly layout: TarLayout;
}

/**
 * Lays out the tar of a package's stored files. Entries are in user-path order (by code unit, so
 * no database collation can change it) with the package's send time as every mtime: the bytes
 * depend only on the stored list, so ranged chunks fetched at different times, from different
 * nodes, fit together.
 */
export function packageTar(pkg: PackageRow, files: readonly FileRow[]): PackageTar {
  const servable = files
    .filter((f): f is ServableFile => f.objectKey !== null)
    .sort((a, b) => (a.userPath < b.userPath ? -1 : a.userPath > b.userPath ? 1 : a.id - b.id));
  const mtime = Math.floor(pkg.sentAt.getTime() / 1000);
  const layout = layoutTar(servable.map((f) => ({ path: f.userPath, size: f.size, mtime })));
  return { files: servable, layout };
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
): string {
  const hash = createHash('sha256').update(
    JSON.stringify([
      pkg.id,
      fileId ?? 'tar',
      size,
      files.map((f) => [f.userPath, f.etag ?? f.objectKey, f.slabStart]),
    ]),
  );
  return `"${hash.digest('hex').slice(0, 32)}"`;
}

/** Where bytes [offset, offset + length) of a file lie: its own object, or a range inside a slab. */
function fileSlice(
  pkg: PackageRow,
  file: ServableFile,
  offset: number,
  length: number,
): { location: ObjectLocation; range: ByteRange } {
  return {
    location: { container: pkg.container, key: file.objectKey },
    range: { offset: (file.slabStart ?? 0) + offset, length },
  };
}

/** A part of a response body: literal bytes, or a slice of a stored object. */
type BodyPart =
  | { readonly kind: 'bytes'; readonly data: Uint8Array }
  | { readonly kind: 'object'; readonly location: ObjectLocation; readonly range: ByteRange };

/** The parts of tar bytes [range.offset, range.offset + range.length). */
export function tarParts(pkg: PackageRow, tar: PackageTar, range: ByteRange): BodyPart[] {
  return piecesForRange(tar.layout, range).map((piece) => {
    if (piece.kind === 'bytes') return piece;
    const { location, range: slice } = fileSlice(
      pkg,
      tar.files[piece.entry]!,
      piece.offset,
      piece.length,
    );
    return { kind: 'object', location, range: slice };
  });
}

/** The parts of bytes `range` of one file. */
export function fileParts(pkg: PackageRow, file: ServableFile, range: ByteRange): BodyPart[] {
  if (range.length === 0) return [];
  const { location, range: slice } = fileSlice(pkg, file, range.offset, range.length);
  return [{ kind: 'object', location, range: slice }];
}

/** A response body under way; `bytesOut` grows as the consumer takes bytes. */
export interface BodyStream {
  readonly stream: Readable;
  bytesOut(): number;
}

/**
 * Streams the parts one after the other, opening each object only when the consumer reaches it
 * (the first one at once, so that failing to open it rejects here, before any response header)
 * and reading it only as fast as the consumer takes it, so memory stays flat however large the
 * range. A storage failure destroys the stream (the client sees a short body and retries) and is
 * logged; destroying the stream closes the object being read.
 */
export async function streamParts(
  storage: StorageDriver,
  parts: readonly BodyPart[],
  log: FastifyBaseLogger,
): Promise<BodyStream> {
  const first = parts[0];
  // Opened before any header goes out, so a missing object is a clean error answer, not a cut body.
  let opened = first?.kind === 'object' ? await storage.read(first.location, first.range) : null;
  let out = 0;
  let current: Readable | null = null;
  let abandoned = false;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      if (part.kind === 'bytes') {
        out += part.data.byteLength;
        yield part.data;
        continue;
      }
      try {
        current = opened ?? (await storage.read(part.location, part.range));
        opened = null;
        let read = 0;
        for await (const chunk of current as AsyncIterable<Uint8Array>) {
          read += chunk.byteLength;
          out += chunk.byteLength;
          yield chunk;
        }
        // A short object would shift every later byte and still look like a finished response.
        if (read !== part.range.length) {
          throw new Error(`storage gave ${read} of ${part.range.length} bytes`);
        }
      } catch (error) {
        // Reading stops with an error when the client left; that is no storage failure.
        if (abandoned) return;
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
  }
  const stream = Readable.from(generate(), { objectMode: false, highWaterMark: 256 * 1024 });
  // A client that goes away must not leave an object open while the generator waits on it.
  stream.once('close', () => {
    abandoned = !stream.readableEnded;
    (current as Readable | null)?.destroy();
    opened?.destroy();
  });
  return { stream, bytesOut: () => out };
}
