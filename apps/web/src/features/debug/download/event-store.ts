import { EVENT_STORE_VERSION, type EventRecord, type EventSink } from './debug-events';

/** The database the download debug page keeps its event logs in, per origin. */
export const EVENT_DATABASE = 'filerunner-debug-events';

/** A run of the page as the download history lists it. */
export interface RecordedRun {
  readonly downloadID: string;
  /** What was downloaded: the package's name, or the URLs' file names. */
  readonly name: string;
  readonly startedAt: number;
}

/** How many runs are kept; older ones (and their events) are removed as new ones start. */
export const RUNS_KEPT = 50;

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });

/**
 * The event store: every record of every run, keyed by (downloadID, eventCount), and the runs
 * themselves. Version 1 held the events alone; version 2 added the runs and the index of events
 * by run, so a log is read back without scanning every run's events.
 */
export class EventStore implements EventSink {
  private connection: Promise<IDBDatabase> | null = null;

  constructor(private readonly databaseName = EVENT_DATABASE) {}

  async add(records: readonly EventRecord[]): Promise<void> {
    const db = await this.db();
    const tx = db.transaction('events', 'readwrite');
    const events = tx.objectStore('events');
    for (const record of records) events.put(record);
    await done(tx);
  }

  /** Starts a run: listed first in the history; the oldest beyond RUNS_KEPT are removed. */
  async startRun(run: RecordedRun): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['runs', 'events'], 'readwrite');
    tx.objectStore('runs').put(run);
    const runs = await request(tx.objectStore('runs').getAll() as IDBRequest<RecordedRun[]>);
    const old = runs.sort((a, b) => b.startedAt - a.startedAt).slice(RUNS_KEPT);
    for (const { downloadID } of old) {
      tx.objectStore('runs').delete(downloadID);
      tx.objectStore('events').delete(
        IDBKeyRange.bound([downloadID, 0], [downloadID, Number.MAX_SAFE_INTEGER]),
      );
    }
    await done(tx);
  }

  /** The runs, newest first. */
  async runs(): Promise<RecordedRun[]> {
    const db = await this.db();
    const runs = await request(
      db.transaction('runs').objectStore('runs').getAll() as IDBRequest<RecordedRun[]>,
    );
    return runs.sort((a, b) => b.startedAt - a.startedAt);
  }

  /** A run's records, in order. */
  async records(downloadID: string): Promise<EventRecord[]> {
    const db = await this.db();
    const index = db.transaction('events').objectStore('events').index('downloadID');
    const records = await request(index.getAll(downloadID) as IDBRequest<EventRecord[]>);
    return records.sort((a, b) => a.eventCount - b.eventCount);
  }

  close(): void {
    const connection = this.connection;
    this.connection = null;
    void connection?.then((db) => db.close());
  }

  private db(): Promise<IDBDatabase> {
    this.connection ??= new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(this.databaseName, EVENT_STORE_VERSION);
      open.onupgradeneeded = (event) => {
        const db = open.result;
        if (event.oldVersion < 1) {
          db.createObjectStore('events', { keyPath: ['downloadID', 'eventCount'] });
        }
        if (event.oldVersion < 2) {
          open.transaction!.objectStore('events').createIndex('downloadID', 'downloadID');
          db.createObjectStore('runs', { keyPath: 'downloadID' });
        }
      };
      open.onsuccess = () => {
        // Another tab opening a newer version: let it, and reopen on the next call.
        open.result.onversionchange = () => this.close();
        resolve(open.result);
      };
      open.onerror = () => reject(open.error ?? new Error('The event store could not be opened'));
    }).catch((error: unknown) => {
      this.connection = null;
      throw error;
    });
    return this.connection;
  }
}
