import { createXXHash128, type IHasher } from 'hash-wasm';

/**
 * Hashers not in use. Making one instantiates hash-wasm's module (a fraction of a millisecond,
 * more than hashing a small file), so each is kept for the next file.
 */
const idleHashers: IHasher[] = [];

/**
 * Runs `use` with an xxh128 hasher made ready for a new file, and keeps the hasher for the
 * next. Shared by the browser's hashing worker and the Node entry.
 */
export async function withXxh128<T>(use: (hasher: IHasher) => T | Promise<T>): Promise<T> {
  const hasher = idleHashers.pop() ?? (await createXXHash128());
  try {
    hasher.init();
    return await use(hasher);
  } finally {
    idleHashers.push(hasher);
  }
}

/**
 * An xxh128 hasher, made ready for a new file, kept by the caller across awaits (a file hashed
 * as its bytes are written); `giveBackXxh128` keeps it for the next file once its digest is taken.
 */
export async function borrowXxh128(): Promise<IHasher> {
  const hasher = idleHashers.pop() ?? (await createXXHash128());
  hasher.init();
  return hasher;
}

export function giveBackXxh128(hasher: IHasher): void {
  idleHashers.push(hasher);
}
