import { openAsBlob } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  rename,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import {
  DownloadSinkError,
  type DownloadSink,
  type SinkMode,
  type SinkTarget,
} from '../core/download/ports';
import type { ByteRange } from '../core/download/ranges';
import { WrittenHash } from '../core/download/written-hash';
import { borrowXxh128, withXxh128 } from '../core/xxh128';
import { fileSlice, READ_BYTES } from './file-reads';

/** A part file open for positional writes, and its hash taken as they land (unpacked files). */
interface OpenPart {
  readonly handle: FileHandle;
  readonly hash: WrittenHash | null;
}

/** What an unfinished file is called until its last byte is written. */
export const PART_SUFFIX = '.filerunner-part';

/**
 * A download written into a folder on disk: each member of the package at its path (folders
 * made as needed), or the `.tar` itself. A file is written to `<name>.filerunner-part` with
 * positional writes, in whatever order its bytes arrive, and renamed to its name once whole, so
 * a name in the folder always means a finished file. Writes survive a crash (the ledger may
 * count them), and a later run finds the part files again.
 *
 * An unpacked file is hashed as it is written (see `WrittenHash`), so its check needs no second
 * read. A file that arrives whole in one write (most small files: a chunk holds many) is written
 * to its part file in one call and renamed: no handle is kept open between calls.
 */
export class FolderSink implements DownloadSink {
  readonly keepsUnclosedWrites = true;
  private readonly targets = new Map<number, SinkTarget>();
  private readonly parts = new Map<number, Promise<OpenPart>>();
  /** Hashes of closed (or whole-written) files, until the check asks for them. */
  private readonly hashes = new Map<number, Promise<string | null>>();
  /** Ledger ranges of resumed part files, taken into the hash when the part opens. */
  private readonly kept = new Map<number, readonly ByteRange[]>();

  constructor(
    readonly folder: string,
    readonly mode: SinkMode,
  ) {}

  async open(targets: readonly SinkTarget[]) {
    const resumable = new Set<number>();
    const failed = new Map<number, DownloadSinkError>();
    await mkdir(this.folder, { recursive: true }).catch((error: unknown) => {
      throw sinkErrorOf(error, this.folder);
    });
    // Each folder is made and listed once, not once per file: what an earlier run left is found
    // in the listing, and only a file found there is looked at again (for its size).
    const listings = new Map<string, Promise<Set<string>>>();
    const listing = (folder: string) => {
      let names = listings.get(folder);
      if (!names) {
        names = mkdir(folder, { recursive: true })
          .then(() => readdir(folder))
          .then((found) => new Set(found));
        listings.set(folder, names);
        names.catch(() => undefined);
      }
      return names;
    };
    for (const target of targets) {
      this.targets.set(target.index, target);
      try {
        const file = this.pathOf(target);
        const names = await listing(path.dirname(file));
        const name = path.basename(file);
        if (names.has(name) && (await hasSize(file, target.size))) resumable.add(target.index);
        else if (target.size === 0) await writeFile(file, new Uint8Array(0));
        else if (names.has(name + PART_SUFFIX)) resumable.add(target.index);
      } catch (error) {
        const refused = sinkErrorOf(error, target.path);
        if (refused.fatal) throw refused;
        failed.set(target.index, refused);
      }
    }
    return { resumable, failed };
  }

  resumed(index: number, ranges: readonly ByteRange[]): void {
    if (this.mode === 'unpack' && ranges.length > 0) this.kept.set(index, ranges);
  }

  async write(index: number, offset: number, data: Uint8Array): Promise<void> {
    const target = this.targetOf(index);
    try {
      if (this.arrivesWhole(target, offset, data)) {
        // The whole file in one call (open, write, close); `close` renames it. The write resolves
        // once `data` is hashed too, as the caller may reuse it after.
        const [, digest] = await Promise.all([
          writeFile(this.pathOf(target) + PART_SUFFIX, data),
          withXxh128((hasher) => hasher.update(data).digest('hex')),
        ]);
        this.hashes.set(index, Promise.resolve(digest));
        return;
      }
      const { handle, hash } = await this.partOf(target);
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(
          data,
          written,
          data.length - written,
          offset + written,
        );
        written += bytesWritten;
      }
      hash?.written(offset, data);
    } catch (error) {
      throw sinkErrorOf(error, target.path);
    }
  }

  async close(index: number): Promise<void> {
    const target = this.targetOf(index);
    try {
      const part = this.parts.get(index);
      if (part) {
        const { handle, hash } = await part;
        this.parts.delete(index);
        // Bytes still being read back for the hash are read before the handle closes.
        if (hash) this.hashes.set(index, hash.digest());
        await this.hashes.get(index);
        await handle.close();
      }
      const file = this.pathOf(target);
      await rename(file + PART_SUFFIX, file);
    } catch (error) {
      throw sinkErrorOf(error, target.path);
    }
  }

  async writtenXxh128(index: number): Promise<string | null> {
    const digest = this.hashes.get(index);
    this.hashes.delete(index);
    return (await digest?.catch(() => null)) ?? null;
  }

  async read(index: number): Promise<Blob> {
    const file = this.pathOf(this.targetOf(index));
    // Read from the file itself in large reads (see `blobChunks`), not the Blob's small ones.
    return fileSlice(await openAsBlob(file), file, await stat(file), 0);
  }

  async discard(index: number): Promise<void> {
    const file = this.pathOf(this.targetOf(index));
    await unlink(file).catch(() => undefined);
    await unlink(file + PART_SUFFIX).catch(() => undefined);
  }

  async dispose(): Promise<void> {
    const open = [...this.parts.values()];
    this.parts.clear();
    this.hashes.clear();
    await Promise.all(
      open.map(async (part) => {
        const opened = await part.catch(() => null);
        opened?.hash?.release();
        await opened?.handle.close();
      }),
    );
  }

  /** A file of which this write is every byte, with nothing of it written before. */
  private arrivesWhole(target: SinkTarget, offset: number, data: Uint8Array): boolean {
    return (
      offset === 0 &&
      data.length === target.size &&
      !this.parts.has(target.index) &&
      !this.kept.has(target.index)
    );
  }

  private targetOf(index: number): SinkTarget {
    const target = this.targets.get(index);
    if (!target) throw new DownloadSinkError('other', `no target ${index} was opened`, true);
    return target;
  }

  /** Where a target lives; a path that would leave the folder is refused as a name. */
  private pathOf(target: SinkTarget): string {
    const segments = target.path.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) {
      throw new DownloadSinkError('name', `${target.path}: not a valid file name here`, false);
    }
    return path.join(this.folder, ...segments);
  }

  private partOf(target: SinkTarget): Promise<OpenPart> {
    let part = this.parts.get(target.index);
    if (!part) {
      part = this.openPart(target);
      this.parts.set(target.index, part);
      part.catch(() => this.parts.delete(target.index));
    }
    return part;
  }

  private async openPart(target: SinkTarget): Promise<OpenPart> {
    const file = this.pathOf(target) + PART_SUFFIX;
    // r+ keeps what an earlier run wrote; a new part file is made when there is none.
    const handle = await open(file, 'r+').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      return mkdir(path.dirname(file), { recursive: true }).then(() => open(file, 'w+'));
    });
    if (this.mode !== 'unpack') return { handle, hash: null };
    const hash = new WrittenHash(target.size, await borrowXxh128(), (start, end, use) =>
      readRange(handle, start, end, use),
    );
    const kept = this.kept.get(target.index);
    if (kept) hash.kept(kept);
    return { handle, hash };
  }
}

/** Bytes [start, end) of an open file, in reads of `READ_BYTES` into one buffer. */
async function readRange(
  handle: FileHandle,
  start: number,
  end: number,
  use: (bytes: Uint8Array) => void,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, end - start));
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at);
    if (bytesRead === 0) throw new Error('the part file is shorter than what was written');
    use(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}

async function hasSize(file: string, size: number): Promise<boolean> {
  try {
    const found = await stat(file);
    return found.isFile() && found.size === size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * The folder's refusal as the panel classes it: full (stop), not writable (stop), or a name
 * this disk cannot hold (that file fails, the others go on).
 */
export function sinkErrorOf(error: unknown, name: string): DownloadSinkError {
  if (error instanceof DownloadSinkError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const cause = { cause: error };
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new DownloadSinkError('quota_exceeded', 'The disk is full.', true, cause);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new DownloadSinkError('write', `${name}: the folder cannot be written.`, true, cause);
    case 'ENAMETOOLONG':
    case 'EINVAL':
    case 'EILSEQ':
    case 'ENOTDIR':
    case 'EISDIR':
      return new DownloadSinkError('name', `${name}: this name cannot exist here.`, false, cause);
    default:
      return new DownloadSinkError('write', `${name}: ${(error as Error).message}`, true, cause);
  }
}
