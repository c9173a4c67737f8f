import { openAsBlob } from 'node:fs';
import { mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  DownloadSinkError,
  type DownloadSink,
  type SinkMode,
  type SinkTarget,
} from '../core/download/ports';

/** What an unfinished file is called until its last byte is written. */
export const PART_SUFFIX = '.filerunner-part';

/**
 * A download written into a folder on disk: each member of the package at its path (folders
 * made as needed), or the `.tar` itself. A file is written to `<name>.filerunner-part` with
 * positional writes, in whatever order its bytes arrive, and renamed to its name once whole, so
 * a name in the folder always means a finished file. Writes survive a crash (the ledger may
 * count them), and a later run finds the part files again.
 */
export class FolderSink implements DownloadSink {
  readonly keepsUnclosedWrites = true;
  private readonly targets = new Map<number, SinkTarget>();
  private readonly handles = new Map<number, Promise<FileHandle>>();

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
    for (const target of targets) {
      this.targets.set(target.index, target);
      try {
        const file = this.pathOf(target);
        await mkdir(path.dirname(file), { recursive: true });
        if (await hasSize(file, target.size)) resumable.add(target.index);
        else if (target.size === 0) await (await open(file, 'w')).close();
        else if (await exists(file + PART_SUFFIX)) resumable.add(target.index);
      } catch (error) {
        const refused = sinkErrorOf(error, target.path);
        if (refused.fatal) throw refused;
        failed.set(target.index, refused);
      }
    }
    return { resumable, failed };
  }

  async write(index: number, offset: number, data: Uint8Array): Promise<void> {
    const target = this.targetOf(index);
    try {
      const handle = await this.handleOf(target);
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
    } catch (error) {
      throw sinkErrorOf(error, target.path);
    }
  }

  async close(index: number): Promise<void> {
    const target = this.targetOf(index);
    try {
      const handle = await this.handleOf(target);
      this.handles.delete(index);
      await handle.close();
      const file = this.pathOf(target);
      await rename(file + PART_SUFFIX, file);
    } catch (error) {
      throw sinkErrorOf(error, target.path);
    }
  }

  read(index: number): Promise<Blob> {
    return openAsBlob(this.pathOf(this.targetOf(index)));
  }

  async discard(index: number): Promise<void> {
    const file = this.pathOf(this.targetOf(index));
    await unlink(file).catch(() => undefined);
    await unlink(file + PART_SUFFIX).catch(() => undefined);
  }

  async dispose(): Promise<void> {
    const open = [...this.handles.values()];
    this.handles.clear();
    await Promise.all(open.map(async (handle) => (await handle.catch(() => null))?.close()));
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

  private handleOf(target: SinkTarget): Promise<FileHandle> {
    let handle = this.handles.get(target.index);
    if (!handle) {
      const part = this.pathOf(target) + PART_SUFFIX;
      // r+ keeps what an earlier run wrote; a new part file is made when there is none.
      handle = open(part, 'r+').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return mkdir(path.dirname(part), { recursive: true }).then(() => open(part, 'w+'));
      });
      this.handles.set(target.index, handle);
      handle.catch(() => this.handles.delete(target.index));
    }
    return handle;
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

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
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
