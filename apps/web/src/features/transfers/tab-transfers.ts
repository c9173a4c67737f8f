import { isSettled, type UploadProgress, type UploadRecord } from '@filerunner/transfer';
import { writeStored } from '../../app/local-storage';
import { percentOf } from './transfer-format';

/** How often a tab with uploads restates them for the other tabs of the browser. */
export const TAB_RECORD_REFRESH_MS = 2000;
/**
 * A record not restated for this long is of a tab that went without a word (a crash, a killed
 * browser): its uploads are no longer running anywhere. A tab that closes withdraws its record.
 */
export const TAB_RECORD_STALE_MS = 30 * 60_000;

const KEY_PREFIX = 'filerunner.transfers.';

/** One upload as the tab that runs it tells the other tabs. */
export interface TabUpload {
  id: string;
  /** The package's name. */
  name: string;
  status: UploadRecord['status'];
  progress: UploadProgress;
}

/**
 * A cross-tab transfer record: the uploads one tab runs, for the other tabs of the browser
 * (kept in localStorage, which they share), so that they show them as running elsewhere
 * rather than as interrupted uploads to resume or discard.
 */
export interface TabTransferRecord {
  /** The tab's id, made when its page loads. */
  tab: string;
  /** Whose uploads they are (the user's id): another person's are not shown. */
  owner: number;
  /** When the tab last restated it (epoch ms). */
  updatedAt: number;
  uploads: TabUpload[];
}

/** An id for this page's tab, made once per page load. */
export function newTabId(random: () => number = Math.random): string {
  return Math.floor(random() * 2 ** 52).toString(36);
}

export function tabRecordOf(
  tab: string,
  owner: number,
  uploads: readonly UploadRecord[],
  now: number,
): TabTransferRecord {
  return {
    tab,
    owner,
    updatedAt: now,
    uploads: uploads.map((u) => ({
      id: u.id,
      name: u.sentPackage,
      status: u.status,
      progress: u.progress,
    })),
  };
}

export function isStale(record: TabTransferRecord, now: number): boolean {
  return now - record.updatedAt >= TAB_RECORD_STALE_MS;
}

/** A record as stored, or null when it is not one (another version's, or damaged). */
export function parseTabRecord(value: unknown): TabTransferRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Partial<TabTransferRecord>;
  const valid =
    typeof record.tab === 'string' &&
    typeof record.owner === 'number' &&
    typeof record.updatedAt === 'number' &&
    Array.isArray(record.uploads) &&
    record.uploads.every(
      (u: Partial<TabUpload>) =>
        typeof u?.id === 'string' &&
        typeof u.name === 'string' &&
        typeof u.status === 'string' &&
        typeof u.progress?.totalBytes === 'number' &&
        typeof u.progress.completedBytes === 'number',
    );
  return valid ? (record as TabTransferRecord) : null;
}

/**
 * The uploads `owner`'s other tabs run, from their records; an upload also in `here` (this page
 * runs it too, after a resume) is this page's to show.
 */
export function uploadsOfOtherTabs(
  records: readonly TabTransferRecord[],
  owner: number | null,
  here: ReadonlySet<string> = new Set(),
): TabUpload[] {
  if (owner === null) return [];
  return records
    .filter((record) => record.owner === owner)
    .flatMap((record) => record.uploads)
    .filter((upload) => !here.has(upload.id));
}

/** Whether an upload another tab reports is over: sent, with or without its failed files. */
export function isSentElsewhere(upload: TabUpload): boolean {
  return isSettled(upload.status);
}

/** How far uploads in other tabs are, by bytes, for the collapsed ring. */
export function otherTabsPercent(uploads: readonly TabUpload[]): number {
  let total = 0;
  let done = 0;
  for (const { status, progress } of uploads) {
    total += progress.totalBytes;
    done += isSettled(status) ? progress.totalBytes : progress.completedBytes;
  }
  return uploads.length > 0 && uploads.every(isSentElsewhere) ? 100 : percentOf(done, total);
}

/** Whether a localStorage key is a tab's record (for `storage` events). */
export function isTabRecordKey(key: string | null): boolean {
  // A null key is the whole storage cleared, records included.
  return key === null || key.startsWith(KEY_PREFIX);
}

/** Stores this tab's record for the other tabs. */
export function publishTabRecord(record: TabTransferRecord): void {
  writeStored(KEY_PREFIX + record.tab, record);
}

/** Takes this tab's record back: it has no upload to tell of, or it is closing. */
export function withdrawTabRecord(tab: string): void {
  writeStored(KEY_PREFIX + tab, null);
}

/** The other tabs' records, fresh ones only; stale ones are removed on the way. */
export function readOtherTabRecords(tab: string, now: number): TabTransferRecord[] {
  const records: TabTransferRecord[] = [];
  try {
    const storage = window.localStorage;
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i));
    for (const key of keys) {
      if (key === null || !key.startsWith(KEY_PREFIX) || key === KEY_PREFIX + tab) continue;
      let record: TabTransferRecord | null = null;
      try {
        record = parseTabRecord(JSON.parse(storage.getItem(key) ?? 'null'));
      } catch {
        record = null;
      }
      if (record && !isStale(record, now)) records.push(record);
      else storage.removeItem(key);
    }
  } catch {
    // Without localStorage no other tab can be told of either.
  }
  return records.sort((a, b) => a.tab.localeCompare(b.tab));
}
