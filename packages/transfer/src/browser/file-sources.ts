import type { ByteSource } from '../core/ports';

/**
 * A file the sender picked with an `<input>` or dropped without a handle. Its bytes stay on disk
 * until a slice of it is sent; after a reload it is gone and the sender picks it again.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  readonly lastModified: number;

  /** `path` defaults to the folder path an `<input webkitdirectory>` gives, else the name. */
  constructor(
    readonly file: File,
    readonly path: string = file.webkitRelativePath || file.name,
  ) {
    this.size = file.size;
    this.lastModified = file.lastModified;
  }

  slice(start: number, end: number): Blob {
    return sliceOf(this.file, start, end);
  }
}

/**
 * The file's bytes from `start` to `end`: the file itself when that is all of it. Every slice is
 * a new Blob the browser registers across processes (about 0.1 to 1 ms each in Chromium), which
 * for a folder of small files costs more than sending them.
 */
function sliceOf(file: File, start: number, end: number): Blob {
  return start === 0 && end >= file.size ? file : file.slice(start, end);
}

/**
 * A file picked through the File System Access API (a picker, a dropped handle, or a walk of a
 * directory handle). The handle outlives the page in IndexedDB, so an upload resumes after a
 * reload without asking the sender to find the file again.
 */
export class FileHandleSource implements ByteSource {
  private constructor(
    readonly handle: FileSystemFileHandle,
    readonly path: string,
    private readonly file: File,
  ) {}

  /**
   * Reads the file's size and date (not its bytes). Rejects with NotAllowedError when read
   * permission was not granted again after a reload, NotFoundError when the file is gone.
   */
  static async open(handle: FileSystemFileHandle, path = handle.name): Promise<FileHandleSource> {
    return new FileHandleSource(handle, path, await handle.getFile());
  }

  get size(): number {
    return this.file.size;
  }

  get lastModified(): number {
    return this.file.lastModified;
  }

  /**
   * The browser reads the bytes when the slice is sent; if the file changed on disk after
   * `open`, reading fails (NotReadableError) rather than sending a mix of old and new bytes.
   */
  slice(start: number, end: number): Blob {
    return sliceOf(this.file, start, end);
  }
}

export type PickedSource = FileSource | FileHandleSource;

/** The files of an `<input type="file">` (with `webkitdirectory`, their folder paths kept). */
export function sourcesFromFileList(files: FileList | readonly File[]): FileSource[] {
  return Array.from(files, (file) => new FileSource(file));
}

/**
 * Every file under a directory handle (a folder's files, then its subfolders), with paths that
 * start at `path`: by default the directory's own name, as a picked or dropped folder appears in
 * the package.
 */
export async function sourcesFromDirectoryHandle(
  directory: FileSystemDirectoryHandle,
  path = directory.name,
): Promise<FileHandleSource[]> {
  const fileHandles: [FileSystemFileHandle, string][] = [];
  const folderHandles: [FileSystemDirectoryHandle, string][] = [];
  for await (const [name, entry] of directory.entries()) {
    const entryPath = path ? `${path}/${name}` : name;
    if (entry.kind === 'file') fileHandles.push([entry, entryPath]);
    else folderHandles.push([entry, entryPath]);
  }
  // A folder of thousands of frames opens its files side by side, not one round trip each.
  const sources = await Promise.all(fileHandles.map(([h, p]) => FileHandleSource.open(h, p)));
  for (const [folder, folderPath] of folderHandles) {
    sources.push(...(await sourcesFromDirectoryHandle(folder, folderPath)));
  }
  return sources;
}
