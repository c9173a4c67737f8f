import { constants, type Dirent } from 'node:fs';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { folderPathKey, nameOutsideFolder, staysInFolder } from '../core/download/folder-paths';

/**
 * Flags that open a file without following a symbolic link in its last component (the folders
 * above it are checked by `FolderPlaces`). Windows has no O_NOFOLLOW; there the check is all.
 */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
export const WRITE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
export const READ_WRITE = constants.O_RDWR | NO_FOLLOW;
/** Exclusive creates: fail on anything already at the name (a planted hard link included). */
export const WRITE_ONLY_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
export const CREATE_NEW = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** What lies at a name in a folder, as the download sees it. */
export type Place =
  | { readonly kind: 'none' }
  /**
   * A file, at `found` (absolute). `exact`: found under the name as given; otherwise its name
   * differs only in case or Unicode form, one file on macOS and Windows, not the download's.
   */
  | { readonly kind: 'file'; readonly found: string; readonly exact: boolean }
  | { readonly kind: 'link' }
  | { readonly kind: 'other' };

/**
 * The folder a download was given and what is already in it, each folder under it listed once
 * (a package of tens of thousands of files asks the disk once per folder, not once per file).
 * Nothing is followed: a symbolic link already in the folder is reported, never entered, so a
 * link planted at `.ssh` cannot carry a package's `.ssh/authorized_keys` into a home folder.
 */
export class FolderPlaces {
  /** Each folder's entries by `folderPathKey` of their names. */
  private readonly listings = new Map<string, Promise<Map<string, Dirent[]> | null>>();
  private readonly made = new Map<string, Promise<void>>();

  constructor(readonly root: string) {}

  /**
   * The absolute path of `name` ('/'-separated) inside the folder.
   * @throws DownloadSinkError 'name' (that file fails) for a name that would leave the folder on
   *   some platform, or resolves outside it here.
   */
  fileOf(name: string): string {
    const file = path.resolve(this.root, ...name.split('/'));
    const relative = path.relative(this.root, file);
    const inside =
      relative !== '' &&
      !path.isAbsolute(relative) &&
      relative !== '..' &&
      !relative.startsWith(`..${path.sep}`);
    if (!staysInFolder(name) || !inside) {
      throw nameOutsideFolder(name);
    }
    return file;
  }

  /**
   * What is at `name` now, found in its folder's listing. A symbolic link on the way (the name
   * or a folder above it) is 'link'; a file where a folder should be is 'other'. Names are
   * matched as case-folding file systems match them: an entry `.bashrc` is at `.BASHRC`.
   */
  async at(name: string): Promise<Place> {
    const segments = name.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const above = await this.placeIn(segments.slice(0, depth - 1), segments[depth - 1]!);
      if (above.kind === 'none') return above;
      if (above.kind !== 'folder') return above.kind === 'link' ? above : { kind: 'other' };
    }
    const place = await this.placeIn(segments.slice(0, -1), segments.at(-1)!);
    return place.kind === 'folder' ? { kind: 'other' } : place;
  }

  /** Makes the folders of `name` one by one, refusing to go through a link made meanwhile. */
  async makeFoldersOf(name: string): Promise<void> {
    const segments = name.split('/').slice(0, -1);
    for (let depth = 1; depth <= segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      let making = this.made.get(folder);
      if (!making) {
        making = this.makeFolder(path.join(this.root, ...segments.slice(0, depth)));
        this.made.set(folder, making);
        making.catch(() => this.made.delete(folder));
      }
      await making;
    }
  }

  private async makeFolder(folder: string): Promise<void> {
    try {
      await mkdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const found = await lstat(folder);
      if (!found.isDirectory()) {
        throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
      }
    }
  }

  private async placeIn(
    folder: readonly string[],
    name: string,
  ): Promise<Place | { kind: 'folder' }> {
    const entries = (await this.listing(folder))?.get(folderPathKey(name));
    const entry = entries?.find((found) => found.name === name) ?? entries?.[0];
    if (!entry) return { kind: 'none' };
    if (entry.isSymbolicLink()) return { kind: 'link' };
    if (entry.isDirectory()) return { kind: 'folder' };
    if (!entry.isFile()) return { kind: 'other' };
    const found = path.join(this.root, ...folder, entry.name);
    return { kind: 'file', found, exact: entry.name === name };
  }

  /** The entries of a folder already checked to be one (no link), or null when it is not there. */
  private listing(folder: readonly string[]): Promise<Map<string, Dirent[]> | null> {
    const key = folder.join('/');
    let listing = this.listings.get(key);
    if (!listing) {
      listing = readdir(path.join(this.root, ...folder), { withFileTypes: true }).then(
        (entries) => {
          const byKey = new Map<string, Dirent[]>();
          for (const entry of entries) {
            const key = folderPathKey(entry.name);
            byKey.set(key, [...(byKey.get(key) ?? []), entry]);
          }
          return byKey;
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        },
      );
      this.listings.set(key, listing);
      listing.catch(() => undefined);
    }
    return listing;
  }
}
