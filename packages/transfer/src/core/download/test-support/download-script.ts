import type { ByteSource, FileHasher } from '../../ports';
import { layoutTar, piecesForRange } from '../../tar/tar-layout';
import type { ScriptedHttp, Reply } from '../../test-support/scripted-http';
import { withXxh128 } from '../../xxh128';
import {
  DownloadSinkError,
  type DownloadDescriptor,
  type DownloadSink,
  type SinkMode,
  type SinkTarget,
} from '../ports';

/*
 * Test support for the download engine: a package's tar built from real bytes, a scripted
 * server that answers HEAD and ranged GETs of it, and a sink that keeps targets in memory.
 */

export const DOWNLOAD_URL = 'https://store.test/v1/AUTH_fr/pkg/package.tar?temp_url_sig=secret';
export const ETAG = '"tar-etag-1"';
const MTIME = 1_767_225_600;

export const xxh128Of = (bytes: Uint8Array) =>
  withXxh128((hasher) => {
    hasher.update(bytes);
    return hasher.digest('hex');
  });

/** A real xxh128 over the source's bytes, counting the files it hashed. */
export class MemoryHasher implements FileHasher {
  readonly hashed: string[] = [];
  async xxh128(source: ByteSource): Promise<string> {
    this.hashed.push(source.path);
    return xxh128Of(new Uint8Array(await source.slice(0, source.size).arrayBuffer()));
  }
}

/** Bytes that differ at every offset and between files (so a misplaced byte shows). */
export function bytesOf(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff;
  return bytes;
}

export interface PackageFile {
  path: string;
  bytes: Uint8Array;
  /** Recorded hash: the real one unless given (null: the sender recorded none). */
  xxh128?: string | null;
}

/** A package's descriptor and the exact tar the server streams for it. */
export async function fakePackage(files: PackageFile[]) {
  const layout = layoutTar(
    files.map((f) => ({ path: f.path, size: f.bytes.length, mtime: MTIME })),
  );
  const tar = new Uint8Array(layout.size);
  let at = 0;
  for (const piece of piecesForRange(layout, { offset: 0, length: layout.size })) {
    if (piece.kind === 'bytes') {
      tar.set(piece.data, at);
      at += piece.data.length;
    } else {
      tar.set(files[piece.entry]!.bytes.subarray(piece.offset, piece.offset + piece.length), at);
      at += piece.length;
    }
  }
  const members = await Promise.all(
    files.map(async (f) => ({
      path: f.path,
      size: f.bytes.length,
      xxh128: f.xxh128 === undefined ? await xxh128Of(f.bytes) : f.xxh128,
    })),
  );
  const descriptor: DownloadDescriptor = {
    downloadUrl: DOWNLOAD_URL,
    filename: 'Day 1.tar',
    size: layout.size,
    tar: { mtime: MTIME, files: members },
  };
  return { descriptor, tar, layout };
}

/** The range a ranged GET asked for, [start, end). */
export function askedRange(headers: Record<string, string>): [number, number] {
  const match = /^bytes=(\d+)-(\d+)$/.exec(headers.range ?? '');
  if (!match) throw new Error(`no range in ${JSON.stringify(headers)}`);
  return [Number(match[1]), Number(match[2]) + 1];
}

/** A 206 with `object`'s bytes [start, end). */
export function partial(object: Uint8Array, start: number, end: number, pieceSize?: number) {
  return {
    status: 206,
    headers: { 'content-range': `bytes ${start}-${end - 1}/${object.length}` },
    body: object.slice(start, end),
    ...(pieceSize ? { pieceSize } : {}),
  };
}

/** Serves `object` as the store does: HEAD with its size and ETag, ranged GETs honouring If-Range. */
export function serveObject(http: ScriptedHttp, object: Uint8Array, etag = ETAG) {
  const head = http
    .on('HEAD', DOWNLOAD_URL)
    .reply({ headers: { 'content-length': String(object.length), etag } });
  const get = http.on('GET', DOWNLOAD_URL).reply(((request) => {
    const [start, end] = askedRange(request.headers);
    if (request.headers['if-range'] && request.headers['if-range'] !== etag) {
      return { status: 200, body: object };
    }
    return partial(object, start, end);
  }) satisfies Reply);
  return { head, get };
}

/** A sink in memory: what a folder would hold, and every call made to it. */
export class MemorySink implements DownloadSink {
  readonly files = new Map<number, Uint8Array>();
  readonly closed: number[] = [];
  readonly discarded: number[] = [];
  readonly opened: SinkTarget[] = [];
  /** Writes refused by name, as a folder refuses a name it cannot hold. */
  readonly refuse = new Map<number, DownloadSinkError>();
  /** What an earlier run left (targets it still holds). */
  resumable = new Set<number>();
  disposed = false;

  constructor(
    readonly mode: SinkMode = 'unpack',
    readonly keepsUnclosedWrites = true,
  ) {}

  async open(targets: readonly SinkTarget[]) {
    this.opened.push(...targets);
    for (const target of targets) {
      if (!this.files.has(target.index)) this.files.set(target.index, new Uint8Array(target.size));
    }
    return { resumable: new Set(this.resumable) };
  }

  async write(index: number, offset: number, data: Uint8Array): Promise<void> {
    const refused = this.refuse.get(index);
    if (refused) throw refused;
    const file = this.files.get(index);
    if (!file) throw new Error(`write to target ${index} before open`);
    if (this.closed.includes(index)) throw new Error(`write to closed target ${index}`);
    if (offset + data.length > file.length) throw new Error(`write past the end of ${index}`);
    file.set(data, offset);
  }

  async close(index: number): Promise<void> {
    if (this.closed.includes(index)) throw new Error(`target ${index} closed twice`);
    this.closed.push(index);
  }

  async read(index: number): Promise<Blob> {
    return new Blob([this.files.get(index)!.slice()]);
  }

  async discard(index: number): Promise<void> {
    this.discarded.push(index);
    this.files.delete(index);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  /** Starts a new run over what this one left, as a folder found again would. */
  reopened(resumable: Iterable<number>): MemorySink {
    const next = new MemorySink(this.mode, this.keepsUnclosedWrites);
    for (const [index, bytes] of this.files) next.files.set(index, bytes);
    next.resumable = new Set(resumable);
    return next;
  }
}
