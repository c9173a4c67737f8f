import { Worker } from 'node:worker_threads';
import type { ObjectRecord } from './object-file';

/**
 * Small object reads on worker threads, in batches. Each read is three system calls (open, one
 * read of preamble, header and data together, close), but through the event loop each is a trip
 * to the thread pool and back: for a tar of ten thousand small files the handoffs, not the disk,
 * set the pace (about 8,000 files a second). A worker makes the three calls one after the
 * other for a whole batch (the files a download reads ahead), so the event loop sends one
 * message and receives one per batch. The worker is plain JavaScript passed as source, so it
 * loads the same way under tsx, vitest and a build (as the MD5 hasher's does).
 */

/** Bytes of the header read with the data in one go; a longer header costs one more read. */
const HEADER_GUESS_BYTES = 1024;
/** Data ending up to this far into the object is read in the same read as the header. */
const ONE_READ_MAX_BYTES = 256 * 1024;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const PREAMBLE = 8;
const MAGIC = Buffer.from('FRO1', 'latin1');
const GUESS = ${HEADER_GUESS_BYTES};
const ONE_READ = ${ONE_READ_MAX_BYTES};

function readFully(fd, buffer, position) {
  let filled = 0;
  while (filled < buffer.length) {
    const n = fs.readSync(fd, buffer, filled, buffer.length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

function readSlice(path, offset, length) {
  let fd;
  try {
    fd = fs.openSync(path, 'r');
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') {
      return { absent: true };
    }
    throw error;
  }
  try {
    const together = offset + length <= ONE_READ;
    const first = Buffer.from(new ArrayBuffer(PREAMBLE + GUESS + (together ? offset + length : 0)));
    const got = readFully(fd, first, 0);
    if (got < PREAMBLE || !first.subarray(0, 4).equals(MAGIC)) {
      throw new Error('not an object file: ' + path);
    }
    const headerBytes = first.readUInt32BE(4);
    const dataOffset = PREAMBLE + headerBytes;
    let header = first.subarray(PREAMBLE, dataOffset);
    if (dataOffset > got) {
      header = Buffer.alloc(headerBytes);
      readFully(fd, header, PREAMBLE);
    }
    const record = JSON.parse(header.toString('utf8'));
    if (record.manifest) return { record };
    const wanted = Math.max(0, Math.min(record.size, offset + length) - offset);
    const from = dataOffset + offset;
    if (from + wanted <= got) {
      return { record, buffer: first.buffer, start: from, length: wanted };
    }
    const data = Buffer.from(new ArrayBuffer(wanted));
    return { record, buffer: data.buffer, start: 0, length: readFully(fd, data, from) };
  } finally {
    fs.closeSync(fd);
  }
}

parentPort.on('message', ({ batch, reads, target }) => {
  const results = [];
  const transfer = [];
  if (target) {
    // Each slice goes to its place in the one buffer, which goes back whole: one message.
    const view = new Uint8Array(target);
    for (const { path, offset, length, at } of reads) {
      try {
        const result = readSlice(path, offset, length);
        if (result.buffer) {
          const got = Math.min(result.length, view.length - at);
          view.set(new Uint8Array(result.buffer, result.start, got), at);
          results.push({ record: result.record, length: got });
        } else {
          results.push(result);
        }
      } catch (error) {
        results.push({ error: error.message, code: error.code });
      }
    }
    parentPort.postMessage({ batch, results, target }, [target]);
    return;
  }
  for (const { path, offset, length } of reads) {
    try {
      const result = readSlice(path, offset, length);
      if (result.buffer) transfer.push(result.buffer);
      results.push(result);
    } catch (error) {
      results.push({ error: error.message, code: error.code });
    }
  }
  parentPort.postMessage({ batch, results }, transfer);
});
`;

/** What a read found: the object's header and the bytes asked for (fewer at its end). */
export interface ObjectSlice {
  readonly record: ObjectRecord;
  /** Null for a manifest: its bytes are its segments', read as a stream. */
  readonly data: Buffer | null;
}

interface Read {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
  resolve(slice: ObjectSlice | null): void;
  reject(error: Error): void;
}

/** What a read into a shared buffer found: its object's header and how many bytes it placed. */
export type PlacedSlice =
  | { readonly record: ObjectRecord; readonly length: number }
  /** A manifest: nothing placed, its bytes are its segments'. */
  | { readonly record: ObjectRecord; readonly length?: undefined }
  | null
  | Error;

type Result =
  | { absent: true }
  | { record: ObjectRecord; buffer?: ArrayBuffer; start?: number; length?: number }
  | { error: string; code?: string };

/** A batch of reads into one buffer, answered as a whole. */
interface PlacedBatch {
  readonly placed: true;
  resolve(answer: { target: ArrayBuffer; slices: PlacedSlice[] }): void;
  reject(error: Error): void;
}

/** Reads per message: a download reads 32 parts ahead, so one or two messages cover them. */
const BATCH_READS = 32;
/**
 * Workers at most: reads of files not in the page cache wait on the disk, so a few batches in
 * flight keep it busy (libuv's thread pool has four threads too).
 */
const MAX_WORKERS = 4;

interface ReaderThread {
  readonly worker: Worker;
  readonly batches: Map<number, Read[] | PlacedBatch>;
}

const threads: ReaderThread[] = [];
let queued: Read[] = [];
let flushScheduled = false;
let nextBatch = 1;

/**
 * Reads bytes [offset, offset + length) of the object file at `filePath` whole; null when there
 * is no such file. Reads asked for in the same turn of the event loop go to a worker together.
 */
export function readSmallObject(
  filePath: string,
  offset: number,
  length: number,
): Promise<ObjectSlice | null> {
  return new Promise((resolve, reject) => {
    queued.push({ path: filePath, offset, length, resolve, reject });
    if (!flushScheduled) {
      flushScheduled = true;
      queueMicrotask(flush);
    }
  });
}

/**
 * Reads bytes [offset, offset + length) of each object file into `target` from byte `at` on, all
 * in one message to a worker (the target goes with it and comes back: use the answered one).
 * Each read answers its object's header and the bytes it placed (fewer at the object's end),
 * null when there is no such file, or the error reading it.
 */
export function readSmallObjectsInto(
  target: ArrayBuffer,
  reads: ReadonlyArray<{ path: string; offset: number; length: number; at: number }>,
): Promise<{ target: ArrayBuffer; slices: PlacedSlice[] }> {
  return new Promise((resolve, reject) => {
    const thread = leastBusyThread();
    const id = nextBatch++;
    thread.batches.set(id, { placed: true, resolve, reject });
    thread.worker.ref();
    thread.worker.postMessage({ batch: id, reads, target }, [target]);
  });
}

function flush(): void {
  flushScheduled = false;
  const reads = queued;
  queued = [];
  for (let at = 0; at < reads.length; at += BATCH_READS) {
    const batch = reads.slice(at, at + BATCH_READS);
    const thread = leastBusyThread();
    const id = nextBatch++;
    thread.batches.set(id, batch);
    thread.worker.ref();
    thread.worker.postMessage({
      batch: id,
      reads: batch.map(({ path, offset, length }) => ({ path, offset, length })),
    });
  }
}

/** An idle worker, else a new one while there may be more, else the one with fewest batches. */
function leastBusyThread(): ReaderThread {
  let best: ReaderThread | null = null;
  for (const thread of threads) {
    if (!best || thread.batches.size < best.batches.size) best = thread;
  }
  if (best && (best.batches.size === 0 || threads.length >= MAX_WORKERS)) return best;
  return startThread();
}

function startThread(): ReaderThread {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const thread: ReaderThread = { worker, batches: new Map() };
  worker.on(
    'message',
    ({ batch, results, target }: { batch: number; results: Result[]; target?: ArrayBuffer }) => {
      const reads = thread.batches.get(batch);
      thread.batches.delete(batch);
      // Idle workers never keep the process alive, so a script that read something exits.
      if (thread.batches.size === 0) worker.unref();
      if (reads && 'placed' in reads) {
        reads.resolve({ target: target!, slices: results.map(placedSlice) });
      } else {
        reads?.forEach((read, index) => settle(read, results[index]!));
      }
    },
  );
  worker.on('error', (error) => {
    threads.splice(threads.indexOf(thread), 1);
    for (const reads of thread.batches.values()) {
      if ('placed' in reads) reads.reject(error);
      else for (const read of reads) read.reject(error);
    }
    thread.batches.clear();
  });
  threads.push(thread);
  return thread;
}

function placedSlice(result: Result): PlacedSlice {
  if ('error' in result) return readError(result);
  if ('absent' in result) return null;
  return { record: result.record, length: result.length };
}

function readError(result: { error: string; code?: string }): Error {
  return Object.assign(new Error(result.error), result.code ? { code: result.code } : {});
}

function settle(read: Read, result: Result): void {
  if ('error' in result) {
    read.reject(readError(result));
  } else if ('absent' in result) {
    read.resolve(null);
  } else if (result.buffer === undefined) {
    read.resolve({ record: result.record, data: null });
  } else {
    const data = Buffer.from(result.buffer, result.start, result.length);
    read.resolve({ record: result.record, data });
  }
}
