import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Md5Hasher } from './md5-hasher';
import { newTempPath } from './temp-files';

/**
 * One object = one file: an 8-byte preamble ("FRO1" + header length), a JSON header with the
 * metadata, then the object's bytes. Keeping metadata and bytes in one file means a single
 * rename publishes both atomically, and a reader holding the file open sees one consistent
 * version even while a PUT replaces it. (A sidecar file would need two renames; xattrs need a
 * native module.) The header is reserved before the body streams in and filled in at the end,
 * when the MD5 and size are known, so bytes are written once and never staged elsewhere.
 */

const MAGIC = Buffer.from('FRO1', 'latin1');
const PREAMBLE_BYTES = 8;
/** Large reads: with 1 MiB chunks Node serves files at 85–96 % of nginx (perf-baselines §2). */
export const READ_CHUNK_BYTES = 1024 * 1024;
/** Writes are batched up to this much while a previous write is in flight. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** Room for the few characters the final header may differ from its placeholder. */
const HEADER_SLACK_BYTES = 64;

export interface ManifestSummary {
  /** MD5 over the segments' etags: the ETag Swift reports for the joined object. */
  readonly sloEtag: string;
  /** Bytes the joined object has. */
  readonly sloSize: number;
}

/** What an object file's header holds. */
export interface ObjectRecord {
  readonly key: string;
  /** MD5 hex of the stored bytes (for a manifest, of its JSON). */
  readonly etag: string;
  /** Stored bytes (for a manifest, of its JSON). */
  readonly size: number;
  readonly contentType: string;
  /** Milliseconds since the epoch. */
  readonly lastModified: number;
  /** X-Object-Meta-* values, names lower-case without the prefix. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Unix seconds after which the object reads as absent (X-Delete-At / X-Delete-After). */
  readonly deleteAt?: number;
  readonly manifest?: ManifestSummary;
}

export type NewObjectRecord = Omit<ObjectRecord, 'etag' | 'size' | 'lastModified'>;

export type WriteFailure =
  'too_large' | 'length_mismatch' | 'etag_mismatch' | 'sealed' | 'no_space';

/** A body refused while it was written; nothing was published. */
export class ObjectWriteError extends Error {
  override readonly name = 'ObjectWriteError';
  constructor(
    readonly reason: WriteFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The file system's "full": no space (ENOSPC), or the user's quota spent (EDQUOT). */
function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** A full file system in the store's words, so the store answers 507 and not 500. */
function noSpaceInOurWords(error: unknown): unknown {
  return isNoSpace(error)
    ? new ObjectWriteError('no_space', 'Insufficient Storage: the volume is full')
    : error;
}

export interface WriteLimits {
  readonly maxBytes: number;
  /** Content-Length announced by the client: fewer or more bytes abort the write. */
  readonly expectedLength?: number;
  /** ETag header of the client: a different MD5 aborts the write. */
  readonly expectedEtag?: string;
  /**
   * Called once the body is on disk with the rename that publishes it; answers false, without
   * calling it, to discard the write. A slow upload may outlive the moment its package was
   * sent: what was checked when it started no longer holds when it ends.
   */
  readonly publishUnlessSealed?: (publish: () => Promise<void>) => Promise<boolean>;
}

function encodeHeader(record: ObjectRecord, reservedBytes?: number): Buffer {
  const json = JSON.stringify(record);
  const bytes = Buffer.byteLength(json, 'utf8');
  const size = reservedBytes ?? bytes + HEADER_SLACK_BYTES;
  if (bytes > size) throw new Error('object header outgrew its reservation');
  const buffer = Buffer.alloc(PREAMBLE_BYTES + size, 0x20);
  MAGIC.copy(buffer, 0);
  buffer.writeUInt32BE(size, 4);
  buffer.write(json, PREAMBLE_BYTES, 'utf8');
  return buffer;
}

/** Writes every chunk at increasing positions while hashing it; batches chunks into one writev. */
class HashingFileSink extends Writable {
  bytes = 0;
  constructor(
    private readonly handle: FileHandle,
    private position: number,
    private readonly hash: Md5Hasher,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: WRITE_BATCH_BYTES });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.writeAll([chunk]).then(() => done(), done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void) {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => done(), done);
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    let total = 0;
    for (const buffer of buffers) total += buffer.length;
    this.bytes += total;
    if (this.bytes > this.maxBytes) {
      throw new ObjectWriteError(
        'too_large',
        `Your request is too large (limit ${this.maxBytes} bytes)`,
      );
    }
    // Hashing (worker thread) and writing (libuv pool) proceed side by side.
    const hashed = this.hash.update(buffers);
    await this.writeFully(buffers, total);
    await hashed;
  }

  private async writeFully(buffers: Buffer[], total: number): Promise<void> {
    let pending = buffers;
    while (total > 0) {
      const { bytesWritten } = await this.handle.writev(pending, this.position);
      this.position += bytesWritten;
      total -= bytesWritten;
      if (total > 0) pending = [Buffer.concat(pending).subarray(bytesWritten)];
    }
  }
}

export interface PublishTarget {
  /** Directory for temp files, on the same file system as `filePath` so rename is atomic. */
  readonly tempDir: string;
  readonly filePath: string;
}

/**
 * Streams a body into a temp file, checks it, fsyncs, then renames it over `filePath`:
 * readers see the old object or the complete new one, never a part. On any failure (client
 * gone, limit passed, etag mismatch) the temp file is removed and the old object stays.
 */
export async function publishObjectFile(
  target: PublishTarget,
  record: NewObjectRecord,
  body: Readable | Buffer,
  limits: WriteLimits,
): Promise<ObjectRecord> {
  const tempPath = newTempPath(target.tempDir);
  const placeholder = encodeHeader({
    ...record,
    etag: '0'.repeat(32),
    size: Number.MAX_SAFE_INTEGER,
    lastModified: 9_999_999_999_999,
  });
  const reserved = placeholder.length - PREAMBLE_BYTES;
  const handle = await open(
    tempPath,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    0o644,
  ).catch((error: unknown) => {
    throw noSpaceInOurWords(error);
  });
  let published = false;
  let hasher: Md5Hasher | null = null;
  try {
    let size: number;
    let etag: string;
    if (Buffer.isBuffer(body)) {
      if (body.length > limits.maxBytes) {
        throw new ObjectWriteError('too_large', 'Your request is too large');
      }
      await handle.write(body, 0, body.length, placeholder.length);
      size = body.length;
      etag = createHash('md5').update(body).digest('hex');
    } else {
      hasher = new Md5Hasher();
      const sink = new HashingFileSink(handle, placeholder.length, hasher, limits.maxBytes);
      await pump(body, sink);
      size = sink.bytes;
      etag = await hasher.digest();
      hasher = null;
    }
    if (limits.expectedLength !== undefined && size !== limits.expectedLength) {
      throw new ObjectWriteError(
        'length_mismatch',
        `Received ${size} bytes, Content-Length said ${limits.expectedLength}`,
      );
    }
    if (limits.expectedEtag !== undefined && limits.expectedEtag.toLowerCase() !== etag) {
      throw new ObjectWriteError(
        'etag_mismatch',
        'Unprocessable Entity: ETag does not match the body',
      );
    }
    const final: ObjectRecord = { ...record, etag, size, lastModified: Date.now() };
    await handle.write(encodeHeader(final, reserved), 0, placeholder.length, 0);
    await handle.sync();
    await handle.close();
    const publish = () => renameIntoPlace(tempPath, target.filePath);
    if (!limits.publishUnlessSealed) await publish();
    else if (!(await limits.publishUnlessSealed(publish))) {
      throw new ObjectWriteError('sealed', 'this object is sealed and can no longer change');
    }
    published = true;
    return final;
  } catch (error) {
    // Whatever part of the object reached the disk goes with its temp file below.
    throw noSpaceInOurWords(error);
  } finally {
    if (!published) {
      hasher?.discard();
      await handle.close().catch(() => undefined);
      await rm(tempPath, { force: true });
    }
  }
}

/**
 * Like stream.pipeline, but a failing sink only unpipes the source instead of destroying it:
 * the source is usually the HTTP request, and its socket must survive to carry the 4xx answer.
 */
function pump(source: Readable, sink: Writable): Promise<void> {
  // A body destroyed before the write began reading it (its client went away while the temp file
  // was being opened) has already closed: no event would come.
  if (source.destroyed && !source.readableEnded) {
    sink.destroy();
    return Promise.reject(
      source.errored ??
        new ObjectWriteError('length_mismatch', 'The body ended before it was complete'),
    );
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      source.unpipe(sink);
      sink.destroy();
      reject(error);
    };
    source.once('error', fail);
    source.once('close', () => {
      if (!source.readableEnded) {
        fail(new ObjectWriteError('length_mismatch', 'The body ended before it was complete'));
      }
    });
    sink.once('error', fail);
    sink.once('finish', () => {
      settled = true;
      resolve();
    });
    source.pipe(sink);
  });
}

/** rename(2) into a directory that a concurrent delete may have just removed. */
async function renameIntoPlace(from: string, to: string): Promise<void> {
  const directory = path.dirname(to);
  for (let attempt = 0; ; attempt++) {
    await mkdir(directory, { recursive: true });
    try {
      await rename(from, to);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw error;
    }
  }
  // The rename itself is durable only once its directory entry is on disk.
  const dir = await open(directory, constants.O_RDONLY);
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** An object file opened for reading: the header is parsed, the bytes follow `dataOffset`. */
export interface OpenObjectFile {
  readonly handle: FileHandle;
  readonly record: ObjectRecord;
  readonly dataOffset: number;
}

/** Opens an object file, or returns null when there is none. */
export async function openObjectFile(filePath: string): Promise<OpenObjectFile | null> {
  let handle: FileHandle;
  try {
    handle = await open(filePath, constants.O_RDONLY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw error;
  }
  try {
    const preamble = Buffer.alloc(PREAMBLE_BYTES);
    const { bytesRead } = await handle.read(preamble, 0, PREAMBLE_BYTES, 0);
    if (bytesRead !== PREAMBLE_BYTES || !preamble.subarray(0, 4).equals(MAGIC)) {
      throw new Error(`not an object file: ${filePath}`);
    }
    const headerBytes = preamble.readUInt32BE(4);
    const header = Buffer.alloc(headerBytes);
    await handle.read(header, 0, headerBytes, PREAMBLE_BYTES);
    const record = JSON.parse(header.toString('utf8')) as ObjectRecord;
    return { handle, record, dataOffset: PREAMBLE_BYTES + headerBytes };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The header of an object file, or null. */
export async function readObjectRecord(filePath: string): Promise<ObjectRecord | null> {
  const opened = await openObjectFile(filePath);
  if (!opened) return null;
  await opened.handle.close();
  return opened.record;
}

/**
 * Streams `length` bytes from `offset` of an opened object and closes it at the end (or when
 * the consumer goes away). Memory stays at about one read chunk whatever the object size.
 */
export function streamObjectBytes(
  opened: OpenObjectFile,
  offset: number,
  length: number,
): Readable {
  if (length <= 0) {
    void opened.handle.close();
    return Readable.from([]);
  }
  const start = opened.dataOffset + offset;
  return opened.handle.createReadStream({
    start,
    end: start + length - 1,
    highWaterMark: READ_CHUNK_BYTES,
    autoClose: true,
  });
}
