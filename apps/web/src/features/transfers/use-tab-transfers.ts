import { useEffect, useRef } from 'react';
import { isSettled } from '@filerunner/transfer';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import {
  isTabRecordKey,
  newTabId,
  publishTabRecord,
  readOtherTabRecords,
  tabRecordOf,
  TAB_RECORD_REFRESH_MS,
  withdrawTabRecord,
} from './tab-transfers';
import { findInterruptedUploads } from './upload-actions';
import { otherTabRecordsRead, selectOtherTabUploads } from './transfers-slice';
import { selectUploads } from './uploads-slice';

/** This page's tab, as its record names it. */
const thisTab = newTabId();

/**
 * Keeps the cross-tab transfer records: every 2 s this page restates its uploads for the other
 * tabs (and takes its record back when it has none, or closes), and reads theirs, now and
 * whenever one changes. An upload that leaves the other tabs unsent (its tab closed or went
 * stale) may be one to resume here, so the interrupted uploads are looked for again.
 */
export function useTabTransfers(): void {
  const dispatch = useAppDispatch();
  const uploads = useAppSelector(selectUploads);
  const owner = useAppSelector((s) => s.auth.user?.id ?? null);
  const elsewhere = useAppSelector(selectOtherTabUploads);
  const latest = useRef({ uploads, owner });
  useEffect(() => {
    latest.current = { uploads, owner };
  }, [uploads, owner]);

  useEffect(() => {
    // Told to the store only when they changed: every tab reads them every 2 s.
    let lastRead = '';
    const read = () => {
      const records = readOtherTabRecords(thisTab, Date.now());
      const seen = JSON.stringify(records);
      if (seen === lastRead) return;
      lastRead = seen;
      dispatch(otherTabRecordsRead(records));
    };
    const restate = () => {
      const { uploads, owner } = latest.current;
      if (owner !== null && uploads.length > 0) {
        publishTabRecord(tabRecordOf(thisTab, owner, uploads, Date.now()));
      } else {
        withdrawTabRecord(thisTab);
      }
      read();
    };
    const changed = (event: StorageEvent) => {
      if (event.storageArea === window.localStorage && isTabRecordKey(event.key)) read();
    };
    const leave = () => withdrawTabRecord(thisTab);
    restate();
    const timer = window.setInterval(restate, TAB_RECORD_REFRESH_MS);
    window.addEventListener('storage', changed);
    window.addEventListener('pagehide', leave);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('storage', changed);
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [dispatch]);

  const running = elsewhere.filter((upload) => !isSettled(upload.status)).map((u) => u.id);
  const runningKey = running.join('\n');
  const before = useRef<string[]>([]);
  useEffect(() => {
    const now = runningKey === '' ? [] : runningKey.split('\n');
    const left = before.current.some((id) => !now.includes(id));
    before.current = now;
    if (left) dispatch(findInterruptedUploads());
  }, [runningKey, dispatch]);
}
