import { openAsBlob } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  rename,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import { foundFileVerdict, OccupiedFolderError } from '../core/download/found-files';
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
import { CREATE_NEW, FolderPlaces, READ_WRITE, WRITE_NEW, WRITE_ONLY_NEW } from './folder-places';

/** A part file open for positional writes, and its hash taken as they land (unpacked files). */
interface OpenPart {
  readonly handle: FileHandle;
  readonly hash: WrittenHash | null;
}

/** What an unfinished file is called until its last byte is written. */
export const PART_SUFFIX = '.filerunner-part';

export interface FolderSinkOptions {
  /**
   * Replace files already in the folder that no earlier run of this download wrote. Without
   * it, `open` refuses the whole download when there is one, before writing anything.
   */
  readonly overwrite?: boolean;
}

/**
 * A download written into a folder on disk: each member of the package at its path (folders
 * made as needed), or the `.tar` itself. A file is written to `<name>.filerunner-part` with
 * positional writes, in whatever order its bytes arrive, and renamed to its name once whole, so
 * a name in the folder always means a finished file. Writes survive a crash (the ledger may
 * count them), and a later run finds the part files again.
 *
 * It writes only inside its folder and only what is its own: a name that would leave the folder
 * on some platform fails; a symbolic link already in the folder is never followed; a file
 * already there is replaced only when an earlier run of the same download wrote it (the ledger
 * says so) or with `overwrite`. Both are checked for every target before anything is written.
 *
 * An unpacked file is hashed as it is written (see `WrittenHash`), so its check needs no second
 * read. A file that arrives whole in one write (most small files: a chunk holds many) is written
 * to its part file in one call and renamed: no handle is kept open between calls.
 */
export class FolderSink implements DownloadSink {
  readonly keepsUnclosedWrites = true;
  private readonly places: FolderPlaces;
  private readonly targets = new Map<number, SinkTarget>();
  /** Each target's file on disk, checked to lie inside the folder. */
  private readonly files = new Map<number, string>();
  private readonly parts = new Map<number, Promise<OpenPart>>();
  /** Hashes of closed (or whole-written) files, until the check asks for them. */
  private readonly hashes = new Map<number, Promise<string | null>>();
  /**
   * Targets whose part file is the download's own (claimed by its ledger, or made by this sink),
   * opened as it is; any other part file is made new, and fails if one is there.
   */
  private readonly ownParts = new Set<number>();
  /** Part files in the way that the person chose to replace, removed before writing. */
  private readonly strayParts = new Set<number>();
  /** Ledger ranges of resumed part files, taken into the hash when the part opens. */
  private readonly kept = new Map<number, readonly ByteRange[]>();

  constructor(
    readonly folder: string,
    readonly mode: SinkMode,
    private readonly options: FolderSinkOptions = {},
  ) {
    this.places = new FolderPlaces(path.resolve(folder));
  }

  async open(
    targets: readonly SinkTarget[],
    _signal?: AbortSignal,
    writtenBefore: ReadonlySet<number> = new Set(),
    claimedBefore = false,
  ) {
    const resumable = new Set<number>();
    const failed = new Map<number, DownloadSinkError>();
    await mkdir(this.folder, { recursive: true }).catch((error: unknown) => {
      throw sinkErrorOf(error, this.folder);
    });
    // First every target is looked at, and nothing written: what is in the way stops it all.
    const notOurs: string[] = [];
    const links: string[] = [];
    const emptyFiles = new Set<SinkTarget>();
    for (const target of targets) {
      this.targets.set(target.index, target);
      try {
        const found = await this.look(target, writtenBefore.has(target.index), claimedBefore);
        if (found === 'resumable') resumable.add(target.index);
        else if (found === 'not ours') notOurs.push(target.path);
        else if (found === 'part not ours') notOurs.push(target.path + PART_SUFFIX);
        else if (found === 'link') links.push(target.path);
        else if (found === 'make empty') emptyFiles.add(target);
      } catch (error) {
        const refused = sinkErrorOf(error, target.path);
        if (refused.fatal) throw refused;
        failed.set(target.index, refused);
      }
    }
    if (notOurs.length > 0 || links.length > 0) throw new OccupiedFolderError(notOurs, links);
    for (const index of resumable) this.ownParts.add(index);
    for (const target of targets) {
      if (failed.has(target.index)) continue;
      try {
        await this.places.makeFoldersOf(target.path);
        const file = this.fileOfTarget(target);
        if (this.strayParts.has(target.index)) await unlinkIfThere(file + PART_SUFFIX);
        if (emptyFiles.has(target)) {
          // Made anew, never opened: a hard link at the name is not written through.
          await unlinkIfThere(file);
          await writeFile(file, new Uint8Array(0), { flag: WRITE_ONLY_NEW });
        }
      } catch (error) {
        const refused = sinkErrorOf(error, target.path);
        if (refused.fatal) throw refused;
        failed.set(target.index, refused);
      }
    }
    return { resumable, failed };
  }

  /**
   * What is at a target's place, touching nothing: a file to resume, one that is not this
   * download's to replace, a link on the way, an empty file to make, or nothing to do yet.
   * @throws DownloadSinkError 'name' for a name this folder cannot hold.
   */
  private async look(
    target: SinkTarget,
    writtenBefore: boolean,
    claimedBefore: boolean,
  ): Promise<'resumable' | 'not ours' | 'part not ours' | 'link' | 'make empty' | 'nothing'> {
    const file = this.places.fileOf(target.path);
    if (target.path.endsWith(PART_SUFFIX)) {
      throw new DownloadSinkError(
        'name',
        `${target.path}: a name this folder keeps for itself`,
        false,
      );
    }
    this.files.set(target.index, file);
    const [place, part] = await Promise.all([
      this.places.at(target.path),
      this.places.at(target.path + PART_SUFFIX),
    ]);
    if (place.kind === 'link' || part.kind === 'link') return 'link';
    if (place.kind === 'other' || part.kind === 'other') {
      throw Object.assign(new Error('a folder or device is in the way'), { code: 'EISDIR' });
    }
    // A file whose name differs only in case is the person's: the ledger knows exact names.
    const exact = place.kind === 'none' || place.exact;
    const verdict = foundFileVerdict({
      size: target.size,
      foundSize: place.kind === 'none' ? null : (await lstat(place.found)).size,
      finished: writtenBefore && exact,
      ours: claimedBefore && exact,
      replace: this.options.overwrite ?? false,
    });
    if (verdict === 'not ours' || verdict === 'make empty') return verdict;
    if (verdict === 'keep') return target.size === 0 ? 'nothing' : 'resumable';
    if (part.kind !== 'file') return 'nothing';
    // A part file is resumed only when a run of this download claimed its name.
    if (claimedBefore && part.exact) return 'resumable';
    if (!this.options.overwrite) return 'part not ours';
    this.strayParts.add(target.index);
    return 'nothing';
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
        const flag = this.ownParts.has(index) ? WRITE_NEW : WRITE_ONLY_NEW;
        this.ownParts.add(index);
        const [, digest] = await Promise.all([
          writeFile(this.fileOfTarget(target) + PART_SUFFIX, data, { flag }),
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
      const file = this.fileOfTarget(target);
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
    const file = this.fileOfTarget(this.targetOf(index));
    // Read from the file itself in large reads (see `blobChunks`), not the Blob's small ones.
    return fileSlice(await openAsBlob(file), file, await stat(file), 0);
  }

  async discard(index: number): Promise<void> {
    const file = this.fileOfTarget(this.targetOf(index));
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

  /** Where a target lives, checked by `open`; a name it refused fails here too. */
  private fileOfTarget(target: SinkTarget): string {
    return this.files.get(target.index) ?? this.places.fileOf(target.path);
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
    const file = this.fileOfTarget(target) + PART_SUFFIX;
    const makeNew = async () => {
      await this.places.makeFoldersOf(target.path);
      return open(file, CREATE_NEW);
    };
    // Read-write keeps what this download wrote before; any other part file is made new.
    const handle = this.ownParts.has(target.index)
      ? await open(file, READ_WRITE).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          return makeNew();
        })
      : await makeNew();
    this.ownParts.add(target.index);
    if (this.mode !== 'unpack') return { handle, hash: null };
    const hash = new WrittenHash(target.size, await borrowXxh128(), (start, end, use) =>
      readRange(handle, start, end, use),
    );
    const kept = this.kept.get(target.index);
    if (kept) hash.kept(kept);
    return { handle, hash };
  }
}

async function unlinkIfThere(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
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

/**
 * The folder's refusal as the panel classes it: full (stop), not writable (stop), or a name
 * this disk cannot hold (that file fails, the others go on).
 */
export function sinkErrorOf(error: unknown, name: string): DownloadSinkError {
  if (error instanceof DownloadSinkError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const cause = { cause: error };
  // ELOOP: a symbolic link put at a part file's name after `open` looked (O_NOFOLLOW).
  switch (code) {
    case 'EEXIST':
      // A file put at a name after `open` looked, which an exclusive create leaves alone.
      return new OccupiedFolderError([name]);
    case 'ENOSPC':
    case 'EDQUOT':
      return new DownloadSinkError('quota_exceeded', 'The disk is full.', true, cause);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new DownloadSinkError('write', `${name}: the folder cannot be written.`, true, cause);
    case 'ENAMETOOLONG':
    case 'ELOOP':
    case 'EINVAL':
    case 'EILSEQ':
    case 'ENOTDIR':
    case 'EISDIR':
      return new DownloadSinkError('name', `${name}: this name cannot exist here.`, false, cause);
    default:
      return new DownloadSinkError('write', `${name}: ${(error as Error).message}`, true, cause);
  }
}
