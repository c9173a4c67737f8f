import { createHash } from 'node:crypto';
import type { SinkTarget } from '../core/download/ports';
import type { Sha256, WrittenBytes } from '../core/download/receipt';
import type { FolderSink } from './folder-sink';

/**
 * Reads back what a FolderSink wrote, from the files on disk: each target found where the sink
 * put it (its own rules for the path inside its folder), read from `offset` only.
 */
export class DiskWrittenBytes implements WrittenBytes {
  constructor(private readonly sink: FolderSink) {}

  async read(target: SinkTarget, offset: number, length: number): Promise<Uint8Array> {
    const file = await this.sink.read(target.index);
    return new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  }
}

/** SHA-256 with node:crypto. */
export const nodeSha256: Sha256 = async (parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
