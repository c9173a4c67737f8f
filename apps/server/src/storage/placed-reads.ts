import type { ByteRange, ObjectLocation, ReadOptions, StorageDriver } from './storage-driver';

/** A small range of an object, to be read whole into a shared buffer from byte `at` on. */
export interface PlacedRead {
  readonly location: ObjectLocation;
  readonly range: ByteRange;
  readonly options?: ReadOptions;
  readonly at: number;
}

/** Why a batch of placed reads failed: which read (its index), and what storage said (`cause`). */
export class PlacedReadError extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'PlacedReadError';
  }
}

/** A short object would shift every later byte and still look like a finished response. */
export function shortRead(read: number, expected: number): Error {
  return new Error(`storage gave ${read} of ${expected} bytes`);
}

/**
 * Reads every range whole into `target` at its place, each on the condition of its options
 * (If-Match), and answers the filled buffer: use the answer, not `target`, which a store may
 * hand to another thread and get back as another object. A store that can (the embedded one)
 * reads the whole batch in one trip to a worker; any other reads each range with `readBytes`.
 * Rejects with a PlacedReadError naming the first read found missing, changed or short.
 */
export async function readPlaced(
  storage: StorageDriver,
  target: ArrayBuffer,
  reads: readonly PlacedRead[],
): Promise<ArrayBuffer> {
  if (storage.readBytesInto) return storage.readBytesInto(target, reads);
  const view = new Uint8Array(target);
  await Promise.all(
    reads.map(async (read, index) => {
      try {
        const bytes = await storage.readBytes(read.location, read.range, read.options);
        if (bytes.byteLength !== read.range.length) {
          throw shortRead(bytes.byteLength, read.range.length);
        }
        view.set(bytes, read.at);
      } catch (error) {
        throw new PlacedReadError(index, error);
      }
    }),
  );
  return target;
}
