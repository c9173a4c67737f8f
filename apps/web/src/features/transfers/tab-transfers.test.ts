// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { initialAuthState } from '../auth/auth-slice';
import {
  otherTabsPercent,
  parseTabRecord,
  publishTabRecord,
  readOtherTabRecords,
  tabRecordOf,
  TAB_RECORD_REFRESH_MS,
  TAB_RECORD_STALE_MS,
  uploadsOfOtherTabs,
  withdrawTabRecord,
} from './tab-transfers';
import { uploadOf } from './test-support/upload-records';
import { discardInterruptedUpload } from './upload-actions';
import {
  interruptedUploadsFound,
  otherTabRecordsRead,
  selectInterruptedUploads,
  selectOtherTabUploads,
} from './transfers-slice';
import type { UploadController } from './upload-controller';

afterEach(() => window.localStorage.clear());

const NOW = 1_800_000_000_000;
const ANN = 7;

describe('cross-tab transfer records', () => {
  it('are restated every 2 s and go stale after 30 minutes', () => {
    expect(TAB_RECORD_REFRESH_MS).toBe(2000);
    expect(TAB_RECORD_STALE_MS).toBe(30 * 60 * 1000);
  });

  it('tell the other tabs each upload: its package, status and progress', () => {
    const record = tabRecordOf(
      'tab-a',
      ANN,
      [uploadOf('p1', 'UPLOADING', { completedBytes: 250, completedFiles: 1 })],
      NOW,
    );
    expect(record).toMatchObject({ tab: 'tab-a', owner: ANN, updatedAt: NOW });
    expect(record.uploads).toEqual([
      {
        id: 'p1',
        name: 'Package p1',
        status: 'UPLOADING',
        progress: expect.objectContaining({ completedBytes: 250, totalBytes: 1000 }),
      },
    ]);
    expect(parseTabRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(parseTabRecord({ tab: 'x', owner: '7', updatedAt: NOW, uploads: [] })).toBeNull();
    expect(parseTabRecord('nonsense')).toBeNull();
  });

  it('are read from the other tabs only, fresh ones; stale and broken ones are removed', () => {
    publishTabRecord(tabRecordOf('mine', ANN, [uploadOf('p0', 'UPLOADING')], NOW));
    publishTabRecord(tabRecordOf('fresh', ANN, [uploadOf('p1', 'UPLOADING')], NOW - 60_000));
    publishTabRecord(
      tabRecordOf('stale', ANN, [uploadOf('p2', 'UPLOADING')], NOW - TAB_RECORD_STALE_MS),
    );
    window.localStorage.setItem('filerunner.transfers.broken', '{');

    expect(readOtherTabRecords('mine', NOW).map((r) => r.tab)).toEqual(['fresh']);
    expect(Object.keys(window.localStorage).sort()).toEqual([
      'filerunner.transfers.fresh',
      'filerunner.transfers.mine',
    ]);

    withdrawTabRecord('fresh');
    expect(readOtherTabRecords('mine', NOW)).toEqual([]);
  });

  it('show only the same person their uploads, and not those this page runs itself', () => {
    const records = [
      tabRecordOf('a', ANN, [uploadOf('p1', 'UPLOADING'), uploadOf('p2', 'PAUSED')], NOW),
      tabRecordOf('b', 8, [uploadOf('p3', 'UPLOADING')], NOW),
    ];
    expect(uploadsOfOtherTabs(records, ANN).map((u) => u.id)).toEqual(['p1', 'p2']);
    expect(uploadsOfOtherTabs(records, ANN, new Set(['p2'])).map((u) => u.id)).toEqual(['p1']);
    expect(uploadsOfOtherTabs(records, null)).toEqual([]);
  });

  it('count towards the ring: bytes sent, a sent upload whole', () => {
    const [half, sent] = tabRecordOf(
      'a',
      ANN,
      [uploadOf('p1', 'UPLOADING', { completedBytes: 500 }), uploadOf('p2', 'COMPLETED')],
      NOW,
    ).uploads;
    expect(otherTabsPercent([half!])).toBe(50);
    expect(otherTabsPercent([half!, sent!])).toBe(75);
    expect(otherTabsPercent([sent!])).toBe(100);
  });
});

describe('an upload another tab runs', () => {
  function pageOfAnn() {
    const discarded: string[] = [];
    const controller = {
      discard: async (id: string) => void discarded.push(id),
    } as unknown as UploadController;
    const { store } = storeAnswering(() => undefined, {
      uploads: controller,
      preloadedState: { auth: { ...initialAuthState, user: { id: ANN } as User } },
    });
    const interrupted = (id: string) => ({
      id,
      name: `Package ${id}`,
      files: 4,
      bytes: 1000,
      handles: false,
      pickAgain: 'files' as const,
    });
    store.dispatch(interruptedUploadsFound([interrupted('p1'), interrupted('p2')]));
    store.dispatch(
      otherTabRecordsRead([tabRecordOf('a', ANN, [uploadOf('p1', 'UPLOADING')], NOW)]),
    );
    return { store, discarded };
  }

  it('is not offered as interrupted, but as running elsewhere', () => {
    const { store } = pageOfAnn();
    expect(selectInterruptedUploads(store.getState()).map((u) => u.id)).toEqual(['p2']);
    expect(selectOtherTabUploads(store.getState()).map((u) => u.id)).toEqual(['p1']);
  });

  it('cannot be discarded from this page', async () => {
    const { store, discarded } = pageOfAnn();
    await store.dispatch(discardInterruptedUpload('p1'));
    await store.dispatch(discardInterruptedUpload('p2'));
    expect(discarded).toEqual(['p2']);
    expect(store.getState().transfers.interrupted.map((u) => u.id)).toEqual(['p1']);
  });
});
