import { nameOutsideFolder, staysInFolder } from '../core/download/folder-paths';

/**
 * The folders and files of a download inside the folder the person picked, by '/'-separated
 * path: only a path that stays inside it on every system (see `staysInFolder`) is mapped to a
 * handle, whatever this browser's own file system would take. Each folder is listed once to
 * learn what is already in it (a package of tens of thousands of files asks the file system once
 * per folder, not once per file), and made only when a file is written into it.
 */
export class FolderTree {
  private readonly folders = new Map<string, Promise<FileSystemDirectoryHandle>>();
  private readonly listings = new Map<string, Promise<Map<string, FileSystemFileHandle>>>();

  constructor(private readonly root: FileSystemDirectoryHandle) {}

  /** The file at `path` when it exists; nothing is made to find out. */
  async existing(path: string): Promise<FileSystemFileHandle | undefined> {
    const { folder, name } = splitPath(path);
    return (await this.listing(folder)).get(name);
  }

  /** The file at `path`, made when missing (empty: opening a writable stream writes it). */
  async create(path: string, keepBytes: boolean): Promise<FileSystemFileHandle> {
    const { folder, name } = splitPath(path);
    const listing = await this.listing(folder);
    const known = keepBytes ? listing.get(name) : undefined;
    if (known) return known;
    const handle = await (await this.folder(folder)).getFileHandle(name, { create: true });
    listing.set(name, handle);
    return handle;
  }

  async remove(path: string): Promise<void> {
    const { folder, name } = splitPath(path);
    await (await this.folder(folder)).removeEntry(name);
    (await this.listing(folder)).delete(name);
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

  private listing(path: string): Promise<Map<string, FileSystemFileHandle>> {
    let listing = this.listings.get(path);
    if (!listing) {
      listing = this.found(path).then(async (folder) => {
        const files = new Map<string, FileSystemFileHandle>();
        if (!folder) return files;
        for await (const [name, entry] of folder.entries()) {
          if (entry.kind === 'file') files.set(name, entry as FileSystemFileHandle);
        }
        return files;
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
