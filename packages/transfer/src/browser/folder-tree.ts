import { folderPathKey, nameOutsideFolder, staysInFolder } from '../core/download/folder-paths';

/** A folder's files by name, and their names by `folderPathKey` (one file on macOS, Windows). */
interface Listing {
  readonly files: Map<string, FileSystemFileHandle>;
  readonly names: Map<string, string>;
}

/**
 * The folders and files of a download inside the folder the person picked, by '/'-separated
 * path: only a path that stays inside it on every system (see `staysInFolder`) is mapped to a
 * handle, whatever this browser's own file system would take. Each folder is listed once to
 * learn what is already in it (a package of tens of thousands of files asks the file system once
 * per folder, not once per file), and made only when a file is written into it.
 */
export class FolderTree {
  private readonly folders = new Map<string, Promise<FileSystemDirectoryHandle>>();
  private readonly listings = new Map<string, Promise<Listing>>();

  constructor(private readonly root: FileSystemDirectoryHandle) {}

  /**
   * The file at `path` when it exists; nothing is made to find out. A file whose name differs
   * only in case or Unicode form is found too (`exact` false): on macOS and Windows it is the
   * same file.
   */
  async existing(
    path: string,
  ): Promise<{ handle: FileSystemFileHandle; exact: boolean } | undefined> {
    const { folder, name } = splitPath(path);
    const { files, names } = await this.listing(folder);
    const found = files.has(name) ? name : names.get(folderPathKey(name));
    const handle = found === undefined ? undefined : files.get(found);
    return handle && { handle, exact: found === name };
  }

  /** The file at `path`, made when missing (empty: opening a writable stream writes it). */
  async create(path: string, keepBytes: boolean): Promise<FileSystemFileHandle> {
    const { folder, name } = splitPath(path);
    const listing = await this.listing(folder);
    const known = keepBytes ? listing.files.get(name) : undefined;
    if (known) return known;
    const handle = await (await this.folder(folder)).getFileHandle(name, { create: true });
    listing.files.set(name, handle);
    listing.names.set(folderPathKey(name), name);
    return handle;
  }

  async remove(path: string): Promise<void> {
    const { folder, name } = splitPath(path);
    await (await this.folder(folder)).removeEntry(name);
    const listing = await this.listing(folder);
    listing.files.delete(name);
    if (listing.names.get(folderPathKey(name)) === name) listing.names.delete(folderPathKey(name));
  }

  private folder(path: string): Promise<FileSystemDirectoryHandle> {
    let folder = this.folders.get(path);
    if (!folder) {
      const cut = path.lastIndexOf('/');
      const parent = path === '' ? null : this.folder(cut === -1 ? '' : path.slice(0, cut));
      const name = path.slice(cut + 1);
      folder = parent
        ? parent.then((handle) => handle.getDirectoryHandle(name, { create: true }))
        : Promise.resolve(this.root);
      // A failure is not kept: the next file in that folder asks the file system again.
      folder.catch(() => this.folders.delete(path));
      this.folders.set(path, folder);
    }
    return folder;
  }

  /** The folder at `path` when it is there, made by no one; null when it is not (or is a file). */
  private async found(path: string): Promise<FileSystemDirectoryHandle | null> {
    const made = this.folders.get(path);
    if (made) return made;
    if (path === '') return this.root;
    const cut = path.lastIndexOf('/');
    const parent = await this.found(cut === -1 ? '' : path.slice(0, cut));
    return (
      parent?.getDirectoryHandle(path.slice(cut + 1)).catch((error: unknown) => {
        const name = (error as { name?: unknown } | null)?.name;
        if (name === 'NotFoundError' || name === 'TypeMismatchError') return null;
        throw error;
      }) ?? null
    );
  }

  private listing(path: string): Promise<Listing> {
    let listing = this.listings.get(path);
    if (!listing) {
      listing = this.found(path).then(async (folder) => {
        const found: Listing = { files: new Map(), names: new Map() };
        if (!folder) return found;
        for await (const [name, entry] of folder.entries()) {
          if (entry.kind !== 'file') continue;
          found.files.set(name, entry as FileSystemFileHandle);
          found.names.set(folderPathKey(name), name);
        }
        return found;
      });
      listing.catch(() => this.listings.delete(path));
      this.listings.set(path, listing);
    }
    return listing;
  }
}

/** @throws DownloadSinkError 'name' for a path that would not stay inside the folder. */
function splitPath(path: string): { folder: string; name: string } {
  if (!staysInFolder(path)) throw nameOutsideFolder(path);
  const cut = path.lastIndexOf('/');
  return { folder: cut === -1 ? '' : path.slice(0, cut), name: path.slice(cut + 1) };
}
