import type { UnknownAction } from '@reduxjs/toolkit';
import {
  errorKindOf,
  filesInTheWay,
  type DownloadDescriptor,
  type DownloadFolder,
  type DownloadMethod,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadRunner,
  type ReceiptCalls,
} from './download-runner';
import {
  downloadFailed,
  downloadFinished,
  downloadGranted,
  downloadPlaced,
  downloadProgressed,
  downloadQueued,
  downloadReceipted,
  downloadRemoved,
  downloadRetried,
  downloadStarted,
  nextQueuedDownload,
  type DownloadsState,
  type NewDownload,
} from './downloads-slice';
import type { DownloadKeeper, GrantSource, KeptDownload } from './kept-downloads';
import { PaintedProgress } from './painted-progress';

/** The spec's pause between one download ending and the next starting. */
export const NEXT_DOWNLOAD_DELAY_MS = 500;

/** What the queue runs downloads with. */
export interface DownloadPlatform {
  /** The browser's own download of a granted URL: there wherever the page is. */
  browser: DownloadRunner;
  /** The engine into a picked folder; absent until the engine and a folder picker exist. */
  folder?: DownloadRunner;
  /** Asks the person for a folder (call it within a click); null when they dismissed it. */
  pickFolder?: () => Promise<DownloadFolder | null>;
  /** The engine's tuning: the hidden settings' download sliders, read when a download starts. */
  options?: () => Partial<DownloadOptions> | Promise<Partial<DownloadOptions>>;
  /**
   * Keeps the downloads running into a folder, so that a later page offers one cut off (a
   * closed tab, a crash) again, and asks its grant anew by its source.
   */
  keeper?: DownloadKeeper;
  regrant?: (source: GrantSource) => Promise<DownloadDescriptor>;
  /** How a kept download asks its receipt by its source, as its own page would have. */
  receiptOf?: (source: GrantSource) => DownloadRequest['receipt'];
  /**
   * Asks again for write access to a folder kept from an earlier page (the browser forgets it
   * with the page); call it within the person's click. True when granted.
   */
  allowFolder?: (folder: DownloadFolder) => Promise<boolean>;
}

/** What a download cut off by its page's end says when a later page offers it again. */
export const interruptedMessage =
  'This download stopped when its page was closed. Retry continues from the files already in the folder.';

/** A download to queue: the record's fields, how to ask its grant, and its folder if picked. */
export interface DownloadRequest extends Omit<NewDownload, 'identifier' | 'rootFolder'> {
  /**
   * Asks the server for the grant. Called when the download starts, so the server checks the
   * PIN, the expiry and the access at that moment, and a grant never waits out its life queued.
   */
  grant: () => Promise<DownloadDescriptor>;
  folder?: DownloadFolder | null;
  /**
   * Asks the server for a signed receipt of the whole package (a recipient's download: the
   * sender cannot ask one of their own); the folder engine asks once its files are checked.
   */
  receipt?: ReceiptCalls;
  /** How a later page asks the grant again; without it a cut-off download is not offered again. */
  source?: GrantSource;
}

/** How a Failed download is tried again. */
export type DownloadRetry =
  | { kind: 'retry' }
  | { kind: 'browser' }
  | { kind: 'tar' }
  | { kind: 'folder'; folder: DownloadFolder }
  /** Into the same folder, replacing the files of its names that stopped it (the person chose). */
  | { kind: 'replace' };

type Store = {
  dispatch: (action: UnknownAction) => unknown;
  getState: () => { downloads: DownloadsState };
};

interface Pending {
  grant: () => Promise<DownloadDescriptor>;
  folder: DownloadFolder | null;
  receipt: DownloadRequest['receipt'];
  source: GrantSource | null;
  /** The record's fields as queued, kept with the folder when it runs into one. */
  fields: Omit<NewDownload, 'identifier' | 'rootFolder'>;
  /** Offered again from an earlier page: its folder's write access is to be asked again. */
  fromEarlierPage: boolean;
  /** Files of its names already in its folder, not its own: the last run stopped for them. */
  inTheWay: readonly string[];
  /** Those of them the person chose to replace, for the next run into the same folder. */
  replace: readonly string[];
  /** Set while it runs: aborting it is the cancel. */
  abort: AbortController | null;
  /** Settles once the grant was given or refused, for the button that asked. */
  granted: { resolve: () => void; reject: (error: unknown) => void } | null;
}

let nextId = 0;

/**
 * Runs the page's downloads one at a time through the runner their method names, the next one
 * half a second after the previous, passing the runner's progress and outcome into the downloads
 * slice. The grant and the folder's handle stay here (the store holds what the panel shows).
 */
export class DownloadController {
  private readonly pending = new Map<string, Pending>();
  private store: Store | null = null;
  private running: string | null = null;
  private waiting: ReturnType<typeof setTimeout> | null = null;
  private lastEndedAt = -Infinity;
  /** Whose downloads are kept (set by `restore`); none are kept before it is known. */
  private owner: string | null = null;
  /** Frees the mark that says this page runs the kept download (see `DownloadKeeper.hold`). */
  private unhold: (() => void) | null = null;

  constructor(private readonly platform: DownloadPlatform) {}

  /** Whether downloads into a folder can be offered here. */
  get foldersAvailable(): boolean {
    return Boolean(this.platform.folder && this.platform.pickFolder);
  }

  /** The store the queue reports to; attached once it exists. */
  attach(store: Store): void {
    this.store = store;
  }

  /**
   * From now on keeps `owner`'s folder downloads, and offers again, as Failed with Retry, the
   * ones an earlier page of theirs left unfinished: their files so far are in the folder, and
   * the engine's ledger makes Retry fetch only what is missing.
   */
  async restore(owner: string): Promise<void> {
    const { keeper, regrant } = this.platform;
    this.owner = owner;
    if (!keeper || !regrant) return;
    const kept = await keeper.list(owner).catch((error: unknown) => {
      // Without IndexedDB (a private window may refuse it) nothing can be offered again.
      console.warn('could not read the interrupted downloads', error);
      return [] as KeptDownload[];
    });
    for (const { id, fields, folder, source } of kept) {
      if (this.owner !== owner || this.pending.has(id)) continue;
      this.pending.set(id, {
        grant: () => regrant(source),
        folder,
        // Resumed here, it earns the sender the same receipt as one that ran whole in one page.
        receipt: this.platform.receiptOf?.(source),
        source,
        fields,
        fromEarlierPage: true,
        inTheWay: [],
        replace: [],
        abort: null,
        granted: null,
      });
      this.dispatch(downloadQueued({ ...fields, identifier: id, rootFolder: folder.name }));
      this.dispatch(
        downloadFailed({ id, error: { kind: 'interrupted', message: interruptedMessage } }),
      );
    }
  }

  /**
   * Queues a download; answers its identifier and when its grant was given (or refused, with
   * the server's reason).
   */
  enqueue(request: DownloadRequest): { id: string; granted: Promise<void> } {
    const { grant, folder = null, receipt, source = null, ...fields } = request;
    const id = `download-${Date.now().toString(36)}-${(nextId++).toString(36)}`;
    const granted = new Promise<void>((resolve, reject) => {
      this.pending.set(id, {
        grant,
        folder,
        receipt,
        source,
        fields,
        fromEarlierPage: false,
        inTheWay: [],
        replace: [],
        abort: null,
        granted: { resolve, reject },
      });
    });
    // Nobody may be listening (a retry from the panel); a refusal is shown on the item.
    granted.catch(() => undefined);
    this.dispatch(downloadQueued({ ...fields, identifier: id, rootFolder: folder?.name ?? null }));
    this.pump();
    return { id, granted };
  }

  /** Asks for a folder within the person's click; null when they dismissed the picker. */
  async pickFolder(): Promise<DownloadFolder | null> {
    return this.platform.pickFolder ? this.platform.pickFolder() : null;
  }

  /** A queued download is given the folder the person picked (it unpacks or keeps the `.tar`). */
  placeInFolder(id: string, folder: DownloadFolder): void {
    const entry = this.pending.get(id);
    const record = this.record(id);
    if (!entry || record?.status !== 'QUEUED') return;
    entry.folder = folder;
    const method: DownloadMethod = record.unpackOption === 'yes' ? 'unpack' : 'tar';
    this.dispatch(downloadPlaced({ id, placement: { method, rootFolder: folder.name } }));
  }

  /** Queues a Failed download again, ahead of the others, the same way or another. */
  retry(id: string, how: DownloadRetry = { kind: 'retry' }): void {
    const entry = this.pending.get(id);
    const record = this.record(id);
    if (!entry || record?.status !== 'FAILED') return;
    // The folder's handle went bad: the same way again cannot work, another folder or the browser can.
    if (how.kind === 'retry' && record.error?.kind === 'directory_handle_invalid') return;
    if (how.kind === 'folder') entry.folder = how.folder;
    // Replacing is asked for these files in this folder, and for this run only.
    entry.replace = how.kind === 'replace' ? entry.inTheWay : [];
    const { allowFolder } = this.platform;
    if (entry.fromEarlierPage && entry.folder && how.kind !== 'browser' && allowFolder) {
      // Asked now, within the click: the browser forgot the folder's access with its page.
      entry.fromEarlierPage = false;
      const folder = entry.folder;
      void allowFolder(folder)
        .catch(() => false)
        .then((allowed) => {
          if (allowed)
            return this.retry(id, how.kind === 'folder' ? { kind: 'folder', folder } : how);
          entry.fromEarlierPage = true;
          const message =
            'The selected folder is no longer accessible. Please choose a valid folder.';
          this.dispatch(
            downloadFailed({ id, error: { kind: 'directory_handle_invalid', message } }),
          );
        });
      return;
    }
    const preferred: DownloadMethod = record.unpackOption === 'yes' ? 'unpack' : 'tar';
    const placements = {
      retry: undefined,
      replace: undefined,
      browser: { method: 'browser' as const, rootFolder: null },
      tar: { method: 'tar' as const, rootFolder: entry.folder?.name ?? null },
      folder: { method: preferred, rootFolder: entry.folder?.name ?? null },
    };
    this.dispatch(downloadRetried({ id, placement: placements[how.kind] }));
    this.pump();
  }

  /** Cancels a download: a running one is stopped, any other leaves the queue. */
  cancel(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.forget(id);
    entry.abort?.abort();
    entry.granted?.reject(new DOMException('The download was cancelled', 'AbortError'));
    this.dispatch(downloadRemoved(id));
  }

  /** Starts the next queued download when nothing runs, no sooner than the pause allows. */
  private pump(): void {
    if (this.running !== null || this.waiting !== null || !this.store) return;
    const next = nextQueuedDownload(this.store.getState());
    if (!next) return;
    const wait = this.lastEndedAt + NEXT_DOWNLOAD_DELAY_MS - Date.now();
    if (wait > 0) {
      this.waiting = setTimeout(() => {
        this.waiting = null;
        this.pump();
      }, wait);
      return;
    }
    void this.run(next.identifier);
  }

  private async run(id: string): Promise<void> {
    const entry = this.pending.get(id)!;
    const abort = new AbortController();
    entry.abort = abort;
    this.running = id;
    this.dispatch(downloadStarted(id));
    try {
      await this.download(id, entry, abort.signal);
    } finally {
      this.unhold?.();
      this.unhold = null;
      entry.abort = null;
      this.running = null;
      this.lastEndedAt = Date.now();
      this.pump();
    }
  }

  private async download(id: string, entry: Pending, signal: AbortSignal): Promise<void> {
    let descriptor: DownloadDescriptor;
    try {
      descriptor = await entry.grant();
      entry.granted?.resolve();
    } catch (error) {
      entry.granted?.reject(error);
      // Refused (expired, locked, removed): a later page could not continue it either.
      this.forget(id);
      if (!signal.aborted) {
        this.dispatch(downloadFailed({ id, error: { kind: 'refused', message: reasonOf(error) } }));
      }
      return;
    } finally {
      entry.granted = null;
    }
    if (signal.aborted) return;
    const { filename, size } = descriptor;
    this.dispatch(downloadGranted({ id, download: { filename, size } }));
    const record = this.record(id)!;
    // A folder method without its folder (the person never gave one) is the browser's download.
    const intoFolder = record.method !== 'browser' && entry.folder !== null;
    const runner = intoFolder ? this.platform.folder : this.platform.browser;
    if (intoFolder) this.keep(id, entry);
    else this.forget(id);
    const painted = new PaintedProgress((progress: DownloadProgress) =>
      this.dispatch(downloadProgressed({ id, progress })),
    );
    try {
      const options = (await this.platform.options?.()) ?? {};
      if (signal.aborted) return;
      if (!runner)
        throw Object.assign(new Error('Folder downloads are not available'), { kind: 'other' });
      const outcome = await runner({
        descriptor,
        method: intoFolder ? record.method : 'browser',
        folder: intoFolder ? entry.folder : null,
        replace: intoFolder ? entry.replace : [],
        options,
        signal,
        onProgress: (progress) => painted.push(progress),
        // Only the engine checks the files a receipt reports on.
        ...(intoFolder &&
          entry.receipt && {
            receipt: { calls: entry.receipt, issued: () => this.dispatch(downloadReceipted(id)) },
          }),
      });
      if (signal.aborted) return;
      painted.flush();
      const totalFiles = descriptor.tar ? descriptor.tar.files.length : 1;
      this.dispatch(downloadFinished({ id, outcome, totalFiles }));
      // Completed and Partially Failed offer nothing more: the grant and folder can go.
      if (this.record(id)?.status !== 'FAILED') {
        this.pending.delete(id);
        this.forget(id);
      }
    } catch (error) {
      if (signal.aborted) return;
      painted.flush();
      const kind = errorKindOf(error);
      entry.inTheWay = filesInTheWay(error);
      // The folder cannot be written any more: the person picks another one.
      if (kind === 'directory_handle_invalid') entry.folder = null;
      this.dispatch(downloadFailed({ id, error: { kind, message: reasonOf(error) } }));
    } finally {
      // Cancelled: the row may be gone, and nothing more is painted on it.
      painted.cancel();
    }
  }

  /** Keeps a download that now runs into its folder, for a later page to offer again. */
  private keep(id: string, entry: Pending): void {
    const { keeper } = this.platform;
    const record = this.record(id);
    if (!keeper || !this.owner || !entry.source || !entry.folder || !record) return;
    const { method, unpackOption } = record;
    this.unhold = keeper.hold(id);
    void keeper
      .save({
        id,
        owner: this.owner,
        fields: { ...entry.fields, method, unpackOption },
        folder: entry.folder,
        source: entry.source,
      })
      .catch((error: unknown) => console.warn('could not keep the download for later', error));
  }

  private forget(id: string): void {
    void this.platform.keeper?.forget(id).catch(() => undefined);
  }

  private record(id: string) {
    return this.store?.getState().downloads.records[id];
  }

  private dispatch(action: UnknownAction): void {
    this.store?.dispatch(action);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
