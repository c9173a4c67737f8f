import type { IHasher } from 'hash-wasm';
import { partOffsets } from '../core/upload/slabs';
import { withXxh128 } from '../core/xxh128';
import type { HashReplies, HashReply, HashRequest } from './hash-messages';

// A dedicated worker: hashing runs beside the page, holding one buffer of a large file at a
// time, or the bytes of a small slab it packs.
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<HashRequest>) => void): void;
  postMessage(replies: HashReplies): void;
};

const cancelled = new Set<number>();

scope.addEventListener('message', ({ data: request }) => {
  if (request.type === 'cancel') cancelled.add(request.id);
  else if (request.type === 'pack') void pack(request.id, request.parts, request.hashed);
  else for (const file of request.files) void hash(file.id, file.blob);
});

/** Replies not yet posted: those ready within one turn of the event loop go in one message. */
let outbox: HashReply[] = [];

function answer(reply: HashReply) {
  if (outbox.length === 0) {
    self.setTimeout(() => {
      const replies = outbox;
      outbox = [];
      scope.postMessage(replies);
    }, 0);
  }
  outbox.push(reply);
}

async function hash(id: number, blob: Blob): Promise<void> {
  try {
    const isCancelled = () => cancelled.has(id);
    const digest =
      blob.size <= WHOLE_READ_BYTES
        ? await hashWhole(blob, isCancelled)
        : await withXxh128(async (hasher) =>
            (await readInto(hasher, blob, isCancelled)) ? hasher.digest('hex') : null,
          );
    if (digest !== null) answer({ type: 'digest', id, digest });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    answer({ type: 'failed', id, name, message });
  } finally {
    cancelled.delete(id);
  }
}

/**
 * Files up to this size are read in one piece, sized to the file: a byte stream costs a buffer
 * of BUFFER_BYTES and a few reads even for a file of a few KiB.
 */
const WHOLE_READ_BYTES = 1024 * 1024;

/**
 * The digest of a small blob read in one piece, or null when cancelled. The hasher is taken
 * only once the bytes are in, so the many small files read at once share a few hashers.
 */
async function hashWhole(blob: Blob, isCancelled: () => boolean): Promise<string | null> {
  const bytes = await readWhole(blob, isCancelled);
  return bytes && digestOf(bytes);
}

function digestOf(bytes: Uint8Array): Promise<string> {
  return withXxh128((hasher) => {
    hasher.update(bytes);
    return hasher.digest('hex');
  });
}

/** A blob's bytes read in one piece, or null when cancelled. */
async function readWhole(blob: Blob, isCancelled: () => boolean): Promise<Uint8Array | null> {
  for (;;) {
    if (isCancelled()) return null;
    // A read that never settles (see readInto) is started again.
    const bytes = await settledWithin(blob.arrayBuffer(), STALLED_READ_MS);
    if (bytes) return new Uint8Array(bytes);
  }
}

/**
 * A slab's files are read a group at a time, as one Blob of the group's files: each read costs
 * the worker and the browser a fixed round of work however small the file, so one read of a
 * group costs little more than one of a file. Building the group's Blob costs Chromium about 4 ms
 * whatever its size up to a few hundred files; 256 files of 10 KiB packed 10,000 files 15 % faster
 * than 64 did, and 1,024 no faster than 256.
 */
const GROUP_FILES = 256;
const GROUP_BYTES = 4 * 1024 * 1024;
/** Groups of a slab read at once. */
const GROUPS_AT_ONCE = 4;

/**
 * Reads a slab's parts into one buffer (each file once), hashes the parts named by `hashed` on
 * the way, and answers the bytes as one Blob, made here rather than on the page.
 */
async function pack(id: number, parts: (Uint8Array<ArrayBuffer> | Blob)[], hashed: number[]) {
  try {
    const isCancelled = () => cancelled.has(id);
    const { offsets, size } = partOffsets(parts);
    const bytes = new Uint8Array(size);
    const groups: number[][] = [];
    let group: number[] = [];
    let groupBytes = 0;
    parts.forEach((part, index) => {
      if (!(part instanceof Blob)) {
        bytes.set(part, offsets[index]);
        return;
      }
      if (
        group.length === GROUP_FILES ||
        (group.length > 0 && groupBytes + part.size > GROUP_BYTES)
      ) {
        groups.push(group);
        group = [];
        groupBytes = 0;
      }
      group.push(index);
      groupBytes += part.size;
    });
    if (group.length > 0) groups.push(group);

    const digests: string[] = new Array<string>(hashed.length);
    const hashedAt = new Map(hashed.map((part, i) => [part, i]));
    let next = 0;
    let stopped = false;
    const readGroups = async () => {
      while (!stopped && next < groups.length) {
        const members = groups[next++]!;
        const read = await readWhole(new Blob(members.map((i) => parts[i]!)), isCancelled);
        if (!read) {
          stopped = true;
          return;
        }
        let at = 0;
        for (const index of members) {
          const data = read.subarray(at, at + (parts[index] as Blob).size);
          at += data.byteLength;
          bytes.set(data, offsets[index]);
          const digest = hashedAt.get(index);
          if (digest !== undefined) digests[digest] = await digestOf(data);
        }
      }
    };
    await Promise.all(
      Array.from({ length: GROUPS_AT_ONCE }, () =>
        // One unreadable file fails the slab: the other reads stop too.
        readGroups().catch((error: unknown) => {
          stopped = true;
          throw error;
        }),
      ),
    );
    if (!stopped) answer({ type: 'packed', id, body: new Blob([bytes]), digests });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    answer({ type: 'failed', id, name, message });
  } finally {
    cancelled.delete(id);
  }
}

/** Bytes read at a time into the one reused buffer. */
const BUFFER_BYTES = 8 * 1024 * 1024;
/** A read of a local file that has not settled after this long is taken to be stuck. */
const STALLED_READ_MS = 10_000;

/**
 * Feeds the blob to the hasher; false when cancelled. A byte stream reads into one reused
 * buffer, so the worker's memory stays flat however large the file (chunks or slices left for
 * the garbage collector pile up to hundreds of MiB). In Chromium such a read of a file that the
 * page is uploading at the same moment now and then never settles; then a fresh stream from the
 * same place carries on, rather than the upload waiting for this hash forever.
 */
async function readInto(hasher: IHasher, blob: Blob, isCancelled: () => boolean): Promise<boolean> {
  let offset = 0;
  let reader = byobReader(blob);
  if (!reader) return readChunks(hasher, blob, isCancelled);
  let buffer = new ArrayBuffer(BUFFER_BYTES);
  for (;;) {
    if (isCancelled()) {
      await reader.cancel();
      return false;
    }
    const read = reader.read(new Uint8Array(buffer)).catch(async (error: unknown) => {
      throw await namedReadError(blob, offset, error);
    });
    const result = await settledWithin(read, STALLED_READ_MS);
    if (!result) {
      void reader.cancel().catch(() => undefined);
      reader = byobReader(blob.slice(offset))!;
      // The stuck read still owns the old buffer.
      buffer = new ArrayBuffer(BUFFER_BYTES);
      continue;
    }
    if (result.done) return true;
    hasher.update(result.value);
    offset += result.value.byteLength;
    buffer = result.value.buffer;
  }
}

/** Browsers without byte streams read the blob's ordinary chunks. */
async function readChunks(hasher: IHasher, blob: Blob, isCancelled: () => boolean) {
  const reader = blob.stream().getReader();
  for (;;) {
    if (isCancelled()) {
      await reader.cancel();
      return false;
    }
    const { done, value } = await reader.read();
    if (done) return true;
    hasher.update(value);
  }
}

/** The promise's value, or undefined if it has not settled within `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: number | undefined;
  const late = new Promise<undefined>((resolve) => (timer = self.setTimeout(resolve, ms)));
  return Promise.race([promise, late]).finally(() => self.clearTimeout(timer));
}

function byobReader(blob: Blob): ReadableStreamBYOBReader | null {
  try {
    return blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}

/**
 * A failed stream says only "TypeError: network error"; reading a byte at the same place gives
 * the reason a person can act on (NotReadableError: the file changed since it was picked).
 */
async function namedReadError(blob: Blob, offset: number, streamError: unknown): Promise<unknown> {
  try {
    await blob.slice(offset, offset + 1).arrayBuffer();
    return streamError;
  } catch (error) {
    return error;
  }
}
