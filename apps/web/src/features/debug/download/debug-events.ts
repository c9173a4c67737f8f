import type { DownloadEvent, DownloadOutcome, DownloadProgress } from '@filerunner/transfer';
import type { ExtractFileState } from '@filerunner/transfer/browser';

/** The debug page's states: nothing running, a download being set up, bytes moving. */
export type DebugDownloadState = 'IDLE' | 'PREPARING' | 'DOWNLOADING';

/** The browser's JavaScript heap when a progress was told (Chromium's `performance.memory`). */
export interface MemoryFigures {
  readonly usedBytes: number;
  readonly totalBytes: number;
  readonly limitBytes: number;
}

/**
 * What the debug page records of a download, in order: everything the engine tells (its events,
 * its progress, each unpacked file's state) and the page's own steps around it (which download
 * started, its outcome or failure). Progress carries the heap at that moment, so a replayed log
 * shows the memory of the recorded run, not of the machine replaying it.
 */
export type RecordedEvent =
  | DownloadEvent
  | {
      readonly type: 'download-started';
      /** The package's name, or the URL's file name: never the URL (a grant is a credential). */
      readonly name: string;
      readonly totalBytes: number;
      readonly untar: boolean;
      readonly asyncWrites: boolean;
    }
  | {
      readonly type: 'progress';
      readonly progress: DownloadProgress;
      readonly memory: MemoryFigures | null;
    }
  | {
      readonly type: 'file-state';
      readonly index: number;
      readonly path: string;
      readonly state: ExtractFileState;
    }
  | { readonly type: 'state'; readonly state: DebugDownloadState }
  | { readonly type: 'download-finished'; readonly name: string; readonly outcome: DownloadOutcome }
  | { readonly type: 'download-failed'; readonly message: string }
  | { readonly type: 'download-aborted' };

/** One record of the event store and of a saved log: the event, its number and its run. */
export interface EventRecord {
  /** Which run of the page it belongs to (one press of Download, all its URLs). */
  readonly downloadID: string;
  /** Its place in the run, from 1: records sort by it, and a replay counts by it. */
  readonly eventCount: number;
  /** Milliseconds since the epoch when it was recorded. */
  readonly at: number;
  readonly event: RecordedEvent;
}

/** Records are kept in memory and written to the event store this many at a time. */
export const EVENT_BUFFER_SIZE = 1000;

/** Where flushed records go: the page's IndexedDB store, or a list in a test. */
export interface EventSink {
  add(records: readonly EventRecord[]): Promise<void>;
}

/**
 * Numbers a run's events and hands them to the store a thousand at a time, so a download of
 * many files does not write to IndexedDB on every chunk; `flush` writes what is left (the run's
 * end). Writes go one after another, so the store holds the records in order.
 */
export class EventRecorder {
  private buffer: EventRecord[] = [];
  private count = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly downloadID: string,
    private readonly sink: EventSink,
    /** Told of each record as it is made: the page's live view. */
    private readonly onRecord: (record: EventRecord) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The records numbered so far. */
  get eventCount(): number {
    return this.count;
  }

  record(event: RecordedEvent): EventRecord {
    const record: EventRecord = {
      downloadID: this.downloadID,
      eventCount: ++this.count,
      at: this.now(),
      event,
    };
    this.buffer.push(record);
    this.onRecord(record);
    if (this.buffer.length >= EVENT_BUFFER_SIZE) void this.flush();
    return record;
  }

  /** Why the store refused records, if it did: the download goes on, its log is incomplete. */
  get storeError(): unknown {
    return this.failure;
  }

  private failure: unknown = null;

  /** Writes the buffered records; resolves once every record so far was handed to the store. */
  flush(): Promise<void> {
    const records = this.buffer;
    this.buffer = [];
    if (records.length > 0) {
      this.writing = this.writing
        .then(() => this.sink.add(records))
        .catch((error: unknown) => {
          this.failure ??= error;
        });
    }
    return this.writing;
  }
}

/** A saved event log, as the page writes it and reads it back. */
export interface EventLogFile {
  readonly format: typeof EVENT_LOG_FORMAT;
  readonly version: typeof EVENT_STORE_VERSION;
  readonly downloadID: string;
  readonly records: readonly EventRecord[];
}

export const EVENT_LOG_FORMAT = 'filerunner-download-event-log';
/** The event store's version, which a saved log carries too. */
export const EVENT_STORE_VERSION = 2;

export function eventLogOf(downloadID: string, records: readonly EventRecord[]): EventLogFile {
  return { format: EVENT_LOG_FORMAT, version: EVENT_STORE_VERSION, downloadID, records };
}

/**
 * Reads a saved log back: its records in order.
 * @throws Error with the reason a person can act on, when the file is not one.
 */
export function parseEventLog(text: string): EventLogFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('This file is not an event log (it is not JSON).');
  }
  const log = parsed as Partial<EventLogFile> | null;
  if (!log || log.format !== EVENT_LOG_FORMAT || !Array.isArray(log.records)) {
    throw new Error('This file is not an event log of the download debug page.');
  }
  if (log.version !== EVENT_STORE_VERSION) {
    throw new Error(`This event log is version ${String(log.version)}; this page reads version 2.`);
  }
  const records = log.records.filter(
    (r): r is EventRecord =>
      typeof r === 'object' &&
      r !== null &&
      typeof r.eventCount === 'number' &&
      typeof r.event === 'object' &&
      r.event !== null &&
      typeof r.event.type === 'string',
  );
  return {
    format: EVENT_LOG_FORMAT,
    version: EVENT_STORE_VERSION,
    downloadID: String(log.downloadID ?? ''),
    records: [...records].sort((a, b) => a.eventCount - b.eventCount),
  };
}
