// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { defaultDownloadOptions } from '@filerunner/transfer';
import { storageKeys } from '../../app/local-storage';
import {
  defaultHiddenSettings,
  downloadOptionsOf,
  getHiddenSettings,
  readHiddenSettings,
  resetHiddenSettings,
  toggleOptimizedDownload,
  updateHiddenSettings,
  uploadWorkersOf,
  useHiddenSettings,
  usesSlabFiles,
} from './hidden-settings';

const store = (value: unknown) =>
  window.localStorage.setItem(storageKeys.hiddenSettings, JSON.stringify(value));
const stored = () => JSON.parse(window.localStorage.getItem(storageKeys.hiddenSettings) ?? 'null');

beforeEach(() => {
  resetHiddenSettings();
  window.localStorage.clear();
});

describe('the hidden settings', () => {
  it('start at the defaults: slabs and workers left to the project, downloads as the spec says', () => {
    expect(readHiddenSettings()).toEqual({
      alwaysUseSlabFiles: false,
      uploadWorkers: null,
      optimizedDownload: true,
      extractFromArchive: true,
      asyncFileWriting: false,
      chunkSizeMb: 150,
      concurrentChunks: 10,
      retries: 3,
      algorithm: 'conservative',
      xhrTimeoutMs: 300_000,
      workerTimeoutMs: 360_000,
      progressIntervalMs: 60_000,
      rateCheckIntervalMs: 30_000,
    });
  });

  it('keep each good stored value and give the default for each bad one', () => {
    store({
      alwaysUseSlabFiles: 'yes',
      uploadWorkers: 51,
      extractFromArchive: false,
      asyncFileWriting: true,
      chunkSizeMb: 155,
      concurrentChunks: 20,
      retries: -1,
      algorithm: 'reckless',
      xhrTimeoutMs: 1_500_000,
      workerTimeoutMs: 1_800_001,
      progressIntervalMs: null,
    });
    expect(readHiddenSettings()).toEqual({
      ...defaultHiddenSettings,
      extractFromArchive: false,
      asyncFileWriting: true,
      concurrentChunks: 20,
      xhrTimeoutMs: 1_500_000,
    });

    store({ uploadWorkers: 2.5 });
    expect(readHiddenSettings().uploadWorkers).toBeNull();
    store({ uploadWorkers: 50, algorithm: 'aggressive' });
    expect(readHiddenSettings()).toMatchObject({ uploadWorkers: 50, algorithm: 'aggressive' });
  });

  it('fall back to the defaults when what is stored is not settings at all', () => {
    for (const junk of [42, 'slabs', [true], null]) {
      store(junk);
      expect(readHiddenSettings()).toEqual(defaultHiddenSettings);
    }
    window.localStorage.setItem(storageKeys.hiddenSettings, '{not json');
    expect(readHiddenSettings()).toEqual(defaultHiddenSettings);
  });

  it('are kept as they change, and a reset stores nothing so the defaults apply', () => {
    updateHiddenSettings({ alwaysUseSlabFiles: true, uploadWorkers: 7 });
    expect(getHiddenSettings()).toMatchObject({ alwaysUseSlabFiles: true, uploadWorkers: 7 });
    expect(stored()).toMatchObject({ alwaysUseSlabFiles: true, uploadWorkers: 7 });
    expect(readHiddenSettings()).toEqual(getHiddenSettings());

    // On by default: support's switch turns it off first, and the choice is kept.
    expect(toggleOptimizedDownload()).toBe(false);
    expect(stored().optimizedDownload).toBe(false);
    expect(readHiddenSettings().optimizedDownload).toBe(false);
    expect(toggleOptimizedDownload()).toBe(true);

    resetHiddenSettings();
    expect(getHiddenSettings()).toEqual(defaultHiddenSettings);
    expect(window.localStorage.getItem(storageKeys.hiddenSettings)).toBeNull();
  });

  it('follow a change made in another tab', () => {
    const { result, unmount } = renderHook(() => useHiddenSettings());
    expect(result.current.alwaysUseSlabFiles).toBe(false);
    store({ alwaysUseSlabFiles: true });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: storageKeys.hiddenSettings }));
    });
    expect(result.current.alwaysUseSlabFiles).toBe(true);
    unmount();
  });

  it('decide slabs and workers over the project’s: slabs always when on, workers when set', () => {
    const project = { use_slab_files: false, number_of_upload_workers: 4 };
    expect(usesSlabFiles(defaultHiddenSettings, project)).toBe(false);
    expect(usesSlabFiles(defaultHiddenSettings, { ...project, use_slab_files: true })).toBe(true);
    expect(usesSlabFiles(defaultHiddenSettings, undefined)).toBe(false);
    const hidden = { ...defaultHiddenSettings, alwaysUseSlabFiles: true, uploadWorkers: 12 };
    expect(usesSlabFiles(hidden, project)).toBe(true);
    expect(usesSlabFiles(hidden, undefined)).toBe(true);

    expect(uploadWorkersOf(defaultHiddenSettings, project)).toBe(4);
    expect(uploadWorkersOf(hidden, project)).toBe(12);
  });

  it('give the download engine its options from the download sliders', () => {
    expect(downloadOptionsOf(defaultHiddenSettings)).toEqual({
      chunkSize: 150_000_000,
      concurrentChunks: 10,
      retries: 3,
      algorithm: 'conservative',
      xhrTimeoutMs: 300_000,
      workerTimeoutMs: 360_000,
      progressIntervalMs: 60_000,
      rateCheckIntervalMs: 30_000,
    });
    // Untouched sliders run the engine exactly as its own defaults would.
    expect(downloadOptionsOf(defaultHiddenSettings)).toEqual(defaultDownloadOptions);
    updateHiddenSettings({
      chunkSizeMb: 600,
      concurrentChunks: 50,
      retries: 0,
      algorithm: 'aggressive',
      xhrTimeoutMs: 5000,
    });
    expect(downloadOptionsOf(getHiddenSettings())).toMatchObject({
      chunkSize: 600_000_000,
      concurrentChunks: 50,
      retries: 0,
      algorithm: 'aggressive',
      xhrTimeoutMs: 5000,
    });
  });
});
