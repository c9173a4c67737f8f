import type { ByteSource, FileHasher } from '../core/ports';
import { withXxh128 } from '../core/xxh128';
import { blobChunks } from './file-reads';

/**
 * xxh128 of whole files with hash-wasm's streaming hasher over the file's bytes, read in large
 * chunks, so memory stays flat whatever its size. Runs beside the upload (the file is read
 * twice, once to hash and once to send; the page cache usually serves the second read).
 */
export class XxhashFileHasher implements FileHasher {
  xxh128(source: ByteSource, signal?: AbortSignal): Promise<string> {
    return withXxh128(async (hasher) => {
      for await (const chunk of blobChunks(source.slice(0, source.size), { buffers: 1 })) {
        signal?.throwIfAborted();
        hasher.update(chunk);
      }
      return hasher.digest('hex');
    });
  }
}
