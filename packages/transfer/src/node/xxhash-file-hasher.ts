import { createXXHash128 } from 'hash-wasm';
import type { ByteSource, FileHasher } from '../core/ports';

/**
 * xxh128 of whole files with hash-wasm's streaming hasher over the file's stream, so memory
 * stays flat whatever its size. Runs beside the upload (the file is read twice, once to hash
 * and once to send; the page cache usually serves the second read).
 */
export class XxhashFileHasher implements FileHasher {
  async xxh128(source: ByteSource, signal?: AbortSignal): Promise<string> {
    const hasher = await createXXHash128();
    hasher.init();
    // Streaming a file-backed Blob is several times faster than reading it in slices.
    for await (const chunk of source.slice(0, source.size).stream() as AsyncIterable<Uint8Array>) {
      signal?.throwIfAborted();
      hasher.update(chunk);
    }
    return hasher.digest('hex');
  }
}
