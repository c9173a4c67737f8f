import { createXXHash128, type IHasher } from 'hash-wasm';
import type { HashReply, HashRequest } from './hash-messages';

// A dedicated worker: hashing runs beside the page, holding one buffer of the file at a time.
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<HashRequest>) => void): void;
  postMessage(reply: HashReply): void;
};

const cancelled = new Set<number>();

scope.addEventListener('message', ({ data: request }) => {
  if (request.type === 'cancel') cancelled.add(request.id);
  else void hash(request.id, request.blob);
});

async function hash(id: number, blob: Blob): Promise<void> {
  try {
    const hasher = await createXXHash128();
    hasher.init();
    const finished = await readInto(hasher, blob, () => cancelled.has(id));
    if (finished) scope.postMessage({ type: 'digest', id, digest: hasher.digest('hex') });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    scope.postMessage({ type: 'failed', id, name, message });
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
