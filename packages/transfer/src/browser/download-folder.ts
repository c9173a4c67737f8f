import { permissionsOf, type FileSystemAccessWindow } from './picked-handles';
import { TransferDatabaseStore } from './transfer-database';
import type { IndexedDbStoreOptions } from './indexeddb-stores';

/** The messages a person sees when a folder cannot be used for downloads. */
export const downloadFolderMessages = {
  systemFolder:
    'Downloads, Documents and Desktop cannot be chosen as a download folder. Choose or create a folder inside one of them.',
  permissionDenied: 'User denied permission to access the file system',
  defaultNotSaved:
    'Sorry, We failed to set that as your default download location. Try again, and if the problem persists contact our support team.',
} as const;

export type DownloadFolderErrorCode = 'system_folder' | 'permission_denied' | 'default_not_saved';

/** A folder that cannot be used, or kept, for downloads; the message is the person's. */
export class DownloadFolderError extends Error {
  override readonly name = 'DownloadFolderError';
  constructor(
    readonly code: DownloadFolderErrorCode,
    options?: { cause?: unknown },
  ) {
    super(downloadFolderMessages[codeMessage[code]], options);
  }
}

const codeMessage = {
  system_folder: 'systemFolder',
  permission_denied: 'permissionDenied',
  default_not_saved: 'defaultNotSaved',
} as const satisfies Record<DownloadFolderErrorCode, keyof typeof downloadFolderMessages>;

/**
 * The folders a download may not be written into directly: unpacking thousands of files into
 * them would bury what the person keeps there.
 */
const SYSTEM_FOLDERS = new Set(['downloads', 'documents', 'desktop']);

/**
 * Whether a picked folder is one of the system folders. A page is given a handle and its name,
 * never its place on disk (there is no path in the API, and `resolve()` only relates handles to
 * one another), so the name is all it can judge by: a folder called "Desktop" anywhere is
 * refused too, and a folder inside Downloads is accepted.
 */
export function isSystemFolder(folder: Pick<FileSystemHandle, 'name'>): boolean {
  return SYSTEM_FOLDERS.has(folder.name.trim().toLowerCase());
}

/** Whether this browser can write downloads into a folder (Chromium): else the browser's own download. */
export function hasFolderAccess(): boolean {
  return 'showDirectoryPicker' in globalThis;
}

/**
 * Asks the person for a folder to download into, with write access: rejects with a
 * DownloadFolderError for a system folder or a refused permission, and with the picker's
 * AbortError when they cancel it. Call it from a click: the picker opens only then.
 */
export async function pickDownloadFolder(): Promise<FileSystemDirectoryHandle> {
  const folder = await (globalThis as unknown as FileSystemAccessWindow).showDirectoryPicker({
    mode: 'readwrite',
  });
  if (isSystemFolder(folder)) throw new DownloadFolderError('system_folder');
  if (!(await requestWritePermission(folder))) throw new DownloadFolderError('permission_denied');
  return folder;
}

/**
 * Whether the page may write into `folder`, asking the person when it may not yet. A folder
 * kept from an earlier visit answers 'prompt' again after a reload, so a default folder is
 * checked here before each download, from the click that starts it.
 */
export async function requestWritePermission(folder: FileSystemDirectoryHandle): Promise<boolean> {
  const permissions = permissionsOf(folder);
  if (!permissions) return true;
  if ((await permissions.queryPermission({ mode: 'readwrite' })) === 'granted') return true;
  return (await permissions.requestPermission({ mode: 'readwrite' })) === 'granted';
}

/**
 * Each person's default download folder, by their id (their email), kept in IndexedDB: a
 * handle is structured-cloneable, so the same folder is offered on the next visit.
 */
export class DefaultDownloadFolders {
  private readonly store: TransferDatabaseStore<FileSystemDirectoryHandle>;

  constructor(options: IndexedDbStoreOptions = {}) {
    this.store = new TransferDatabaseStore('download-folders', options.databaseName);
  }

  /** @throws DownloadFolderError 'default_not_saved' when the browser would not keep it. */
  async save(userId: string, folder: FileSystemDirectoryHandle): Promise<void> {
    try {
      await this.store.put(userId, folder);
    } catch (error) {
      throw new DownloadFolderError('default_not_saved', { cause: error });
    }
  }

  /** The person's default folder, or undefined (none kept, or the browser cannot read it back). */
  async get(userId: string): Promise<FileSystemDirectoryHandle | undefined> {
    return this.store.get(userId).catch(() => undefined);
  }

  forget(userId: string): Promise<void> {
    return this.store.delete(userId);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
