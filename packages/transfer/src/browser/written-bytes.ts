import type { SinkTarget } from '../core/download/ports';
import type { Sha256, WrittenBytes } from '../core/download/receipt';
import { FolderTree } from './folder-tree';

/**
 * Reads back what a download wrote into a folder the person picked: the unpacked files, or the
 * `.tar` kept whole, through the folder's handles (as the folder sink found and wrote them).
 */
export class FolderHandleWrittenBytes implements WrittenBytes {
  private readonly tree: FolderTree;

  constructor(folder: FileSystemDirectoryHandle) {
    this.tree = new FolderTree(folder);
  }

  async read(target: SinkTarget, offset: number, length: number): Promise<Uint8Array> {
    const handle = (await this.tree.existing(target.path))?.handle;
    if (!handle) throw new DOMException(`${target.path} is not in the folder`, 'NotFoundError');
    const file = await handle.getFile();
    return new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  }
}

/** SHA-256 with the page's SubtleCrypto. */
export const browserSha256: Sha256 = async (parts) => {
  const joined = new Uint8Array(parts.reduce((sum, p) => sum + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
};
