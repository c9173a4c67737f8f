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
  else void hash(request.id, request.blob, request.sliceBytes);
});

async function hash(id: number, blob: Blob, sliceBytes: number): Promise<void> {
  try {
    const hasher = await createXXHash128();
    hasher.init();
    const finished = await readInto(hasher, blob, sliceBytes, () => cancelled.has(id));
    if (finished) scope.postMessage({ type: 'digest', id, digest: hasher.digest('hex') });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    scope.postMessage({ type: 'failed', id, name, message });
  } finally {
    cancelled.delete(id);
  }
}

/**
 * Feeds the blob to the hasher; false when cancelled. A byte stream reads into one reused
 * buffer, so the worker's memory stays flat however large the file (reading slices with
 * `arrayBuffer()` leaves each behind for the garbage collector, which lets them pile up).
 */
async function readInto(
  hasher: IHasher,
  blob: Blob,
  bufferBytes: number,
  isCancelled: () => boolean,
): Promise<boolean> {
  const reader = byobReader(blob);
  if (!reader) {
    for (let start = 0; start < blob.size; start += bufferBytes) {
      if (isCancelled()) return false;
      hasher.update(new Uint8Array(await blob.slice(start, start + bufferBytes).arrayBuffer()));
    }
    return true;
  }
  let buffer = new ArrayBuffer(bufferBytes);
  let offset = 0;
  for (;;) {
    if (isCancelled()) {
      await reader.cancel();
      return false;
    }
    const { done, value } = await reader.read(new Uint8Array(buffer)).catch(async (error) => {
      throw await namedReadError(blob, offset, error);
    });
    if (done) return true;
    hasher.update(value);
    offset += value.byteLength;
    buffer = value.buffer;
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

function byobReader(blob: Blob): ReadableStreamBYOBReader | null {
  try {
    return blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}
