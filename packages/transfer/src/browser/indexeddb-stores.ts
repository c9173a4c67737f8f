import type { ResumeStore } from '../core/ports';
import type { PickedHandle } from './picked-handles';
import { TransferDatabaseStore } from './transfer-database';

export interface IndexedDbStoreOptions {
  /** The IndexedDB database; tests give their own so they start empty. */
  databaseName?: string;
}

/**
 * Ledgers kept in one object store of the transfer database, stored by structured clone: as
 * given, or (`Stored`) in a form of the subclass's, which then answers `get` and `put`.
 */
class IndexedDbLedgers<Ledger, Stored = Ledger> implements ResumeStore<Ledger> {
  protected readonly store: TransferDatabaseStore<Stored>;

  constructor(store: 'ledgers' | 'download-ledgers', options: IndexedDbStoreOptions) {
    this.store = new TransferDatabaseStore<Stored>(store, options.databaseName);
  }

  async get(key: string): Promise<Ledger | undefined> {
    return (await this.store.get(key)) as Ledger | undefined;
  }
  put(key: string, ledger: Ledger) {
    return this.store.put(key, ledger as unknown as Stored);
  }
  delete(key: string) {
    return this.store.delete(key);
  }
  keys() {
    return this.store.keys();
  }
  close() {
    return this.store.close();
  }
}

/**
 * Upload ledgers in IndexedDB, by package slug: they outlive a reload, a closed tab or a crash,
 * so the panel can list interrupted uploads and send only what is missing. Ledgers are stored
 * by structured clone, as given.
 */
export class IndexedDbResumeStore<Ledger = unknown> extends IndexedDbLedgers<Ledger> {
  constructor(options: IndexedDbStoreOptions = {}) {
    super('ledgers', options);
  }
}

/**
 * Download ledgers in IndexedDB (the files and ranges already written into the folder), apart
 * from the uploads' so that a package sent and received in the same browser keeps both.
 *
 * With `folder`, a ledger is kept with the folder it describes and read back only for that same
 * folder: it says which files there are the download's own, which another folder's files of the
 * same names are not. A download into another folder starts a ledger of its own.
 */
export class IndexedDbDownloadResumeStore<Ledger = unknown> extends IndexedDbLedgers<
  Ledger,
  Ledger | FolderLedger<Ledger>
> {
  private readonly folder: FileSystemDirectoryHandle | undefined;

  constructor(options: IndexedDbStoreOptions & { folder?: FileSystemDirectoryHandle } = {}) {
    super('download-ledgers', options);
    this.folder = options.folder;
  }

  override async get(key: string): Promise<Ledger | undefined> {
    const kept = await this.store.get(key);
    if (!this.folder) return kept as Ledger | undefined;
    const { folder, ledger } = (kept ?? {}) as Partial<FolderLedger<Ledger>>;
    const same = await folder?.isSameEntry(this.folder).catch(() => false);
    return same ? ledger : undefined;
  }
  override put(key: string, ledger: Ledger) {
    return this.store.put(key, this.folder ? { folder: this.folder, ledger } : ledger);
  }
}

/** A download ledger kept with the folder it describes (a handle is structured-cloneable). */
interface FolderLedger<Ledger> {
  readonly folder: FileSystemDirectoryHandle;
  readonly ledger: Ledger;
}

/**
 * The files and folders picked for each upload (by package slug), as handles, so Resume after a
 * reload reads the same files again once the sender grants read permission
 * (`requestReadPermission`). Delete an upload's entry when it completes or is cancelled.
 */
export class IndexedDbPickedHandleStore {
  private readonly store: TransferDatabaseStore<PickedHandle[]>;

  constructor(options: IndexedDbStoreOptions = {}) {
    this.store = new TransferDatabaseStore<PickedHandle[]>('picked-handles', options.databaseName);
  }

  get(key: string): Promise<PickedHandle[] | undefined> {
    return this.store.get(key);
  }
  put(key: string, picked: readonly PickedHandle[]): Promise<void> {
    return this.store.put(key, [...picked]);
  }
  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }
  keys(): Promise<string[]> {
    return this.store.keys();
  }
  close(): Promise<void> {
    return this.store.close();
  }
}
