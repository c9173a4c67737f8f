import {
  foundFileVerdict,
  OccupiedFolderError,
  sideNames,
  type FoundFileVerdict,
} from '../core/download/found-files';
import {
  DownloadSinkError,
  type DownloadSink,
  type SinkMode,
  type SinkTarget,
} from '../core/download/ports';
import { FilesInFlight, type InFlight } from './files-in-flight';
import { folderErrorOf, folderIsGone } from './folder-errors';
import { FolderTree } from './folder-tree';
import { HeldBytes } from './held-bytes';

/** Where an unpacked file stands, as the debug download page shows it. */
export type ExtractFileState = 'pending' | 'writing' | 'closing' | 'closed' | 'error';

export interface ExtractFileEvent {
  readonly index: number;
  readonly path: string;
  readonly state: ExtractFileState;
  /** Why it failed, with state 'error'. */
  readonly error?: DownloadSinkError;
}

export interface FolderSinkOptions {
  mode: SinkMode;
  /**
   * Hand each write to the file and go on without waiting for it to land (the hidden settings'
   * async file writing): faster on slow disks, at the cost of a failure surfacing on a later
   * write or on close. Without it, each write resolves once the bytes are in the file.
   */
  asyncWrites?: boolean;
  /** Files open for writing at once; the spec's 10. */
  filesInFlight?: number;
  /** Bytes handed to files and not yet written, with async writes, before a write waits. */
  maxQueuedBytes?: number;
  /** Every change of a file's state, for the debug view. */
  onFileState?: (event: ExtractFileEvent) => void;
  /**
   * Paths of files already in the folder that the person chose to replace (the ones a refused
   * `open` named). Any other file the download did not make still stops it.
   */
  replace?: readonly string[];
}

export const EXTRACT_FILES_IN_FLIGHT = 10;
const MAX_QUEUED_BYTES = 32 * 1024 * 1024;

interface Target {
  readonly path: string;
  readonly size: number;
  /** It was found whole from an earlier run, or parked: opening it again keeps its bytes. */
  keepBytes: boolean;
  failure?: DownloadSinkError;
}

interface OpenFile extends InFlight {
  writable: Promise<FileSystemWritableFileStream>;
  writes: Set<Promise<void>>;
  /** Set while it is parked: done once its bytes so far are in place. */
  parked?: Promise<void>;
}

/**
 * A download written into a folder the person picked, through the File System Access API: each
 * of the tar's members unpacked at its path (`unpack`), or the `.tar` itself (`tar`, one
 * target). Writes are positional, so chunks that arrive in any order land where they belong.
 *
 * A browser's writable stream writes to a swap file and puts it in place on close, so what a
 * write resolved for is not on disk until then (`keepsUnclosedWrites` is false): after a crash,
 * only closed files are found again, by name and size, and a half-written one starts over.
 *
 * It writes only over its own files: one the ledger says an earlier run finished, or any at
 * the package's names once a run has claimed them (the file a write begins is made under its
 * real name at once, and a parked one is half there); others only when the person said so.
 */
export class FolderSink implements DownloadSink {
  readonly keepsUnclosedWrites = false;
  readonly mode: SinkMode;
  private readonly tree: FolderTree;
  private readonly inFlight: FilesInFlight<OpenFile>;
  private readonly targets = new Map<number, Target>();
  /** Small files' bytes as written, for their checks (see HeldBytes). */
  private readonly held = new HeldBytes();
  private writeClock = 0;
  private queuedBytes = 0;
  private roomWaiters: (() => void)[] = [];
  /** A failure no later write can escape (a full disk, a folder gone): every call answers it. */
  private fatal: DownloadSinkError | null = null;
  private disposed = false;

  constructor(
    private readonly folder: FileSystemDirectoryHandle,
    private readonly options: FolderSinkOptions,
  ) {
    this.mode = options.mode;
    this.tree = new FolderTree(folder);
    this.inFlight = new FilesInFlight<OpenFile>(
      options.filesInFlight ?? EXTRACT_FILES_IN_FLIGHT,
      (file) => this.park(file),
    );
  }

  /**
   * Looks at every target's name before writing anything: a file there that the download did
   * not make (see `foundFileVerdict`) and the person did not choose to replace stops it all
   * with `OccupiedFolderError`, naming them. Then the empty files are made.
   */
  async open(
    targets: readonly SinkTarget[],
    signal?: AbortSignal,
    writtenBefore: ReadonlySet<number> = new Set(),
    claimedBefore = false,
  ) {
    const resumable = new Set<number>();
    const replace = new Set(this.options.replace);
    const notOurs: string[] = [];
    /** Empty files to make, and whether a file of ours with bytes is there to empty. */
    const emptyFiles = new Map<number, boolean>();
    for (const { index, path, size } of targets) {
      signal?.throwIfAborted();
      this.targets.set(index, { path, size, keepBytes: false });
      try {
        // A name taken by a file not ours may have names beside it (the ASC MHL chain): the
        // first of them free, or ours from an earlier run, is where the file goes. A file found
        // at the first name of such a file is never taken as ours: the ledger keeps indexes, not
        // names, so a resumed run could not tell its own chain there from another package's.
        const side = sideNames(path);
        let verdict: FoundFileVerdict = 'not ours';
        let foundSize: number | null = null;
        let place = path;
        for (const name of [path, ...side]) {
          const found = await this.tree.existing(name);
          foundSize = found ? (await found.handle.getFile()).size : null;
          // A file whose name differs only in case is the person's: the ledger knows exact names.
          const exact = (found?.exact ?? true) && !(found && name === path && side.length > 0);
          place = name;
          verdict = foundFileVerdict({
            size,
            foundSize,
            finished: writtenBefore.has(index) && exact,
            ours: claimedBefore && exact,
            replace: replace.has(name),
          });
          if (verdict !== 'not ours') break;
        }
        const target: Target = { path: place, size, keepBytes: false };
        this.targets.set(index, target);
        if (verdict === 'not ours') notOurs.push(path);
        else if (verdict === 'make empty') emptyFiles.set(index, foundSize !== null);
        else if (verdict === 'keep' && size > 0) {
          target.keepBytes = true;
          resumable.add(index);
        }
      } catch (error) {
        await this.failAtOpen(index, error);
      }
    }
    if (notOurs.length > 0) throw new OccupiedFolderError(notOurs);
    for (const [index, emptying] of emptyFiles) {
      const { path } = this.known(index);
      try {
        // An empty file never receives a write: it is made here, or emptied.
        const handle = await this.tree.create(path, false);
        if (emptying) await (await handle.createWritable()).close();
      } catch (error) {
        await this.failAtOpen(index, error);
      }
    }
    for (const { index } of targets) if (!this.known(index).failure) this.report(index, 'pending');
    return { resumable };
  }

  private async failAtOpen(index: number, error: unknown): Promise<void> {
    this.fail(index, await this.classify(error, this.known(index).path));
    if (this.fatal) throw this.fatal;
  }

  async write(index: number, offset: number, data: Uint8Array, signal?: AbortSignal) {
    const target = this.usable(index);
    const file = await this.inFlight.place(index, () => this.openFile(index, target), signal);
    try {
      // The download may have failed while this write waited for a place.
      this.usable(index);
    } catch (error) {
      file.busy--;
      this.inFlight.changed();
      throw error;
    }
    file.lastWritten = ++this.writeClock;
    this.held.wrote(index, target.size, offset, data);
    let written: Promise<void>;
    try {
      const writable = await file.writable;
      // Streamed bodies are views of plain ArrayBuffers; the port types them more loosely.
      const bytes = data as Uint8Array<ArrayBuffer>;
      written = writable.write({ type: 'write', position: offset, data: bytes });
    } catch (error) {
      file.busy--;
      throw await this.dropAfter(file, error);
    }
    const landed = written
      .then(
        () => undefined,
        async (error: unknown) => {
          throw await this.dropAfter(file, error);
        },
      )
      .finally(() => {
        file.busy--;
        file.writes.delete(tracked);
        this.inFlight.changed();
      });
    // What close waits for; a failure is recorded on the file and answered by the next call.
    const tracked = landed.catch(() => undefined);
    file.writes.add(tracked);
    if (!this.options.asyncWrites) return landed;
    this.queuedBytes += data.byteLength;
    void tracked.finally(() => {
      this.queuedBytes -= data.byteLength;
      this.roomFreed();
    });
    await this.roomForMore(signal);
  }

  async close(index: number) {
    this.usable(index);
    let file = this.inFlight.get(index);
    if (file?.parking) {
      await file.parked;
      file = this.inFlight.get(index);
    }
    if (file) {
      file.closing = true;
      this.report(index, 'closing');
      await Promise.all(file.writes);
      this.usable(index);
      try {
        await (await file.writable).close();
      } catch (error) {
        throw await this.dropAfter(file, error);
      }
      this.inFlight.release(file);
    } else this.usable(index);
    this.report(index, 'closed');
  }

  heldBytes(index: number): Blob | null {
    return this.held.take(index);
  }

  async read(index: number): Promise<Blob> {
    const target = this.usable(index);
    try {
      const handle = (await this.tree.existing(target.path))?.handle;
      if (!handle) throw new DOMException(`${target.path} is not in the folder`, 'NotFoundError');
      return await handle.getFile();
    } catch (error) {
      throw await this.classify(error, target.path);
    }
  }

  async discard(index: number) {
    const target = this.known(index);
    this.held.forget(index);
    const file = this.inFlight.get(index);
    if (file) {
      this.inFlight.release(file);
      await (await file.writable.catch(() => null))?.abort().catch(() => undefined);
    }
    try {
      await this.tree.remove(target.path);
    } catch (error) {
      throw await this.classify(error, target.path);
    }
  }

  /** Drops every file still open without putting it in place: no half file under a real name. */
  async dispose() {
    this.disposed = true;
    this.held.clear();
    const open = this.inFlight.all();
    for (const file of open) this.inFlight.release(file);
    await Promise.all(
      open.map(async (file) => {
        const writable = await file.writable.catch(() => null);
        await writable?.abort().catch(() => undefined);
        this.report(file.index, 'pending');
      }),
    );
    this.roomFreed();
  }

  private openFile(index: number, target: Target): OpenFile {
    this.report(index, 'writing');
    const file: OpenFile = {
      index,
      busy: 0,
      lastWritten: this.writeClock,
      ready: false,
      closing: false,
      parking: false,
      writes: new Set(),
      writable: this.tree.create(target.path, target.keepBytes).then(async (handle) => {
        const writable = await handle.createWritable({ keepExistingData: target.keepBytes });
        file.ready = true;
        return writable;
      }),
    };
    // A failure to open is answered to the write that waits for it.
    file.writable.catch(() => undefined);
    return file;
  }

  /** Closes a file early to make room; it opens again, its bytes kept, when more arrive. */
  private park(file: OpenFile): Promise<void> {
    const target = this.known(file.index);
    this.report(file.index, 'closing');
    file.parked = (async () => {
      try {
        await Promise.all(file.writes);
        await (await file.writable).close();
        target.keepBytes = true;
        this.inFlight.release(file);
        this.report(file.index, 'pending');
      } catch (error) {
        await this.dropAfter(file, error).catch(() => undefined);
      }
    })();
    return file.parked;
  }

  /** A file whose write or close failed: its place is freed and its failure recorded. */
  private async dropAfter(file: OpenFile, error: unknown): Promise<unknown> {
    const target = this.known(file.index);
    const failure = await this.classify(error, target.path);
    this.inFlight.release(file);
    if (failure instanceof DownloadSinkError) {
      this.fail(file.index, failure);
      const writable = await file.writable.catch(() => null);
      await writable?.abort().catch(() => undefined);
    }
    return failure;
  }

  private fail(index: number, failure: unknown) {
    if (!(failure instanceof DownloadSinkError)) throw failure;
    if (failure.fatal) this.fatal ??= failure;
    const target = this.known(index);
    target.failure ??= failure;
    this.held.forget(index);
    this.report(index, 'error', failure);
  }

  private async classify(error: unknown, path: string): Promise<unknown> {
    const name = (error as { name?: unknown } | null)?.name;
    const gone =
      (name === 'NotFoundError' || name === 'InvalidStateError') &&
      (await folderIsGone(this.folder));
    return folderErrorOf(error, path, gone);
  }

  /** The target, unless the download or this file has already failed. */
  private usable(index: number): Target {
    if (this.disposed) throw new DownloadSinkError('other', 'The download was stopped', true);
    if (this.fatal) throw this.fatal;
    const target = this.known(index);
    if (target.failure) throw target.failure;
    return target;
  }

  private known(index: number): Target {
    const target = this.targets.get(index);
    if (!target) throw new RangeError(`no target ${index} was opened`);
    return target;
  }

  private report(index: number, state: ExtractFileState, error?: DownloadSinkError) {
    const path = this.targets.get(index)?.path ?? '';
    this.options.onFileState?.({ index, path, state, ...(error ? { error } : {}) });
  }

  private async roomForMore(signal?: AbortSignal) {
    const max = this.options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
    while (this.queuedBytes > max && !this.disposed) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
  }

  private roomFreed() {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const wake of waiters) wake();
  }
}
