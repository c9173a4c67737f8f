import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Bytes per read from disk. Node's file-backed Blob reads 64 KiB at a time, and every chunk pays
 * a stream's promises, a copy into hash-wasm's memory or a socket write; reads of 1 MiB hash a
 * large file with a third of the CPU, and send it with half.
 */
export const READ_BYTES = 1024 * 1024;

/** The bytes of a file on disk that a Blob stands for, and the file as it was when picked. */
interface FileRange {
  filePath: string;
  start: number;
  end: number;
  picked: { size: number; mtimeMs: number };
}

const fileRanges = new WeakMap<Blob, FileRange>();

/**
 * `blob`, the bytes of `filePath` from `start`, remembered as such so that `blobChunks` reads
 * them from the file itself. `picked` is the file's state when it was picked: reading fails if
 * the file has changed since, as reading a Blob from `fs.openAsBlob` does.
 */
export function fileSlice(
  blob: Blob,
  filePath: string,
  picked: Pick<Stats, 'size' | 'mtimeMs'>,
  start: number,
): Blob {
  fileRanges.set(blob, {
    filePath,
    start,
    end: start + blob.size,
    picked: { size: picked.size, mtimeMs: picked.mtimeMs },
  });
  return blob;
}

/**
 * A Blob's bytes in order: read straight from disk in reads of `READ_BYTES` when it is a slice
 * made by `fileSlice`, otherwise (a slab or a form joined from several parts) from its own
 * stream. Each chunk is a fresh buffer that the consumer may keep, unless `buffers` is given:
 * then the reads go into that many buffers in turn, sparing the garbage collector a buffer per
 * read, and a chunk's bytes hold only until the `buffers`-th chunk after it is asked for (a
 * hasher, which copies each chunk at once, needs one buffer).
 */
export async function* blobChunks(
  blob: Blob,
  { buffers = 0 } = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const range = fileRanges.get(blob);
  if (!range) {
    yield* blob.stream() as AsyncIterable<Uint8Array>;
    return;
  }
  const { filePath, start, end } = range;
  const ring = Array.from({ length: buffers }, () =>
    Buffer.allocUnsafe(Math.min(READ_BYTES, end - start)),
  );
  const handle = await open(filePath);
  try {
    assertUnchanged(range, await handle.stat());
    for (let at = start, turn = 0; at < end; turn++) {
      const length = Math.min(READ_BYTES, end - at);
      const chunk = buffers > 0 ? ring[turn % buffers]! : Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(chunk, 0, length, at);
      if (bytesRead === 0) throw changed(range);
      at += bytesRead;
      // Checked again before the last bytes go, so that a file edited while it was read fails
      // rather than arrives as a mix of old and new bytes.
      if (at === end) assertUnchanged(range, await handle.stat());
      yield bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads all of `blob` into `target` (as long as the blob): a slice made by `fileSlice` from its
 * file in one read (a small file costs an open, a read, a close and the checks that it did not
 * change), any other Blob through its own bytes.
 */
export async function readBlobInto(blob: Blob, target: Uint8Array): Promise<void> {
  const range = fileRanges.get(blob);
  if (!range) {
    target.set(new Uint8Array(await blob.arrayBuffer()));
    return;
  }
  const handle = await open(range.filePath);
  try {
    assertUnchanged(range, await handle.stat());
    for (let at = 0; at < target.byteLength;) {
      const { bytesRead } = await handle.read(target, at, target.byteLength - at, range.start + at);
      if (bytesRead === 0) throw changed(range);
      at += bytesRead;
    }
    assertUnchanged(range, await handle.stat());
  } finally {
    await handle.close();
  }
}

function assertUnchanged(range: FileRange, now: Stats) {
  if (now.size !== range.picked.size || now.mtimeMs !== range.picked.mtimeMs) throw changed(range);
}

function changed(range: FileRange) {
  return new DOMException(`${range.filePath} changed after it was picked`, 'NotReadableError');
}
