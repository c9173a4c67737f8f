import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { PickedHandle } from './picked-handles';

/** The database the browser entry keeps its ledgers and picked handles in, per origin. */
export const TRANSFER_DATABASE = 'filerunner-transfer';

interface TransferSchema extends DBSchema {
  /** An upload's ledger (what is already stored) by package slug. */
  ledgers: { key: string; value: unknown };
  /** What the sender picked for an upload, by package slug. */
  'picked-handles': { key: string; value: PickedHandle[] };
  /** What a page needs to offer an interrupted upload again, by package slug. */
  uploads: { key: string; value: unknown };
  /** A download's ledger (the files and ranges already in its folder), by the download's key. */
  'download-ledgers': { key: string; value: unknown };
  /** The folder each person downloads into by default, by their id (email). */
  'download-folders': { key: string; value: FileSystemDirectoryHandle };
  /** What a page needs to offer a cut-off download again (its folder, how to ask its grant). */
  downloads: { key: string; value: unknown };
}

export type StoreName =
  'ledgers' | 'picked-handles' | 'uploads' | 'download-ledgers' | 'download-folders' | 'downloads';

/**
 * A key-value store of one object store in the transfer database. The connection opens on first
 * use and closes itself when another tab upgrades the database, reopening on the next call.
 */
export class TransferDatabaseStore<Value> {
  private connection: Promise<IDBPDatabase<TransferSchema>> | null = null;

  constructor(
    private readonly store: StoreName,
    private readonly databaseName = TRANSFER_DATABASE,
  ) {}

  async get(key: string): Promise<Value | undefined> {
    return (await (await this.db()).get(this.store, key)) as Value | undefined;
  }

  async put(key: string, value: Value): Promise<void> {
    await (await this.db()).put(this.store, value as never, key);
  }

  async delete(key: string): Promise<void> {
    await (await this.db()).delete(this.store, key);
  }

  async keys(): Promise<string[]> {
    return (await this.db()).getAllKeys(this.store);
  }

  /** Closes the connection (e.g. before deleting the database in a test). */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    (await connection)?.close();
  }

  private db(): Promise<IDBPDatabase<TransferSchema>> {
    this.connection ??= openDB<TransferSchema>(this.databaseName, 4, {
      // Each version adds stores; a browser holding an older database keeps its ledgers.
      upgrade(db, oldVersion) {
        if (oldVersion < 1) {
          db.createObjectStore('ledgers');
          db.createObjectStore('picked-handles');
        }
        if (oldVersion < 2) db.createObjectStore('uploads');
        if (oldVersion < 3) {
          db.createObjectStore('download-ledgers');
          db.createObjectStore('download-folders');
        }
        if (oldVersion < 4) db.createObjectStore('downloads');
      },
      blocking: () => void this.close(),
      terminated: () => {
        this.connection = null;
      },
    }).catch((error: unknown) => {
      this.connection = null;
      throw error;
    });
    return this.connection;
  }
}
