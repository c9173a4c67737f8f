import { useSyncExternalStore } from 'react';
import type { ContractSettings } from '@filerunner/protocol';
import { defaultDownloadOptions, MAX_CONCURRENT_CHUNKS } from '@filerunner/transfer';
import { readStored, storageKeys, writeStored } from '../../app/local-storage';
import { WORKERS_MAX, WORKERS_MIN } from '../settings/settings-form';
import type { DownloadOptions } from '../transfers/download-runner';

/** How a download splits its files into chunks: the careful default, or the faster trial one. */
export const downloadAlgorithms = ['conservative', 'aggressive'] as const;
export type DownloadAlgorithm = (typeof downloadAlgorithms)[number];

export const downloadAlgorithmLabels: Record<DownloadAlgorithm, string> = {
  conservative: 'Conservative',
  aggressive: 'Aggressive (Experimental)',
};

/**
 * The settings of the hidden dialog (Alt+Shift+C), kept in this browser only: support asks a
 * person to change them to work around a slow or unreliable link, so they are not the account's.
 *
 * The download ones (optimised download and everything after it) tune the download engine:
 * optimised download offers the folder choices, the sliders become its options.
 */
export interface HiddenSettings {
  /** Pack small files into slabs whatever the project says; off leaves it to the project. */
  alwaysUseSlabFiles: boolean;
  /** Parallel upload requests; null leaves it to the project's `number_of_upload_workers`. */
  uploadWorkers: number | null;
  /**
   * Downloads through the engine into a folder, wherever the browser can pick one (on unless
   * support asked the person to turn it off). Toggled by Alt+Shift+P only; the download
   * sliders are disabled while it is off.
   */
  optimizedDownload: boolean;
  /** Unpack a package's tar as it downloads rather than save the .tar. */
  extractFromArchive: boolean;
  asyncFileWriting: boolean;
  chunkSizeMb: number;
  concurrentChunks: number;
  retries: number;
  algorithm: DownloadAlgorithm;
  xhrTimeoutMs: number;
  workerTimeoutMs: number;
  progressIntervalMs: number;
  rateCheckIntervalMs: number;
}

export const defaultHiddenSettings: Readonly<HiddenSettings> = Object.freeze({
  alwaysUseSlabFiles: false,
  uploadWorkers: null,
  optimizedDownload: true,
  extractFromArchive: true,
  asyncFileWriting: false,
  // The sliders start where the engine does: its defaults are the one source.
  chunkSizeMb: defaultDownloadOptions.chunkSize / 1_000_000,
  concurrentChunks: defaultDownloadOptions.concurrentChunks,
  retries: defaultDownloadOptions.retries,
  algorithm: defaultDownloadOptions.algorithm,
  xhrTimeoutMs: defaultDownloadOptions.xhrTimeoutMs,
  workerTimeoutMs: defaultDownloadOptions.workerTimeoutMs,
  progressIntervalMs: defaultDownloadOptions.progressIntervalMs,
  rateCheckIntervalMs: defaultDownloadOptions.rateCheckIntervalMs,
});

export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

/** A timeout or interval may go from 5 s up to five times its default, in steps of 5 s. */
const timing = (fallback: number): SliderRange => ({ min: 5000, max: 5 * fallback, step: 5000 });

/** The ranges of the download sliders; a stored value outside its range is not taken. */
export const sliderRanges = {
  chunkSizeMb: { min: 150, max: 600, step: 10 },
  concurrentChunks: { min: 1, max: MAX_CONCURRENT_CHUNKS, step: 1 },
  retries: { min: 0, max: 10, step: 1 },
  xhrTimeoutMs: timing(defaultHiddenSettings.xhrTimeoutMs),
  workerTimeoutMs: timing(defaultHiddenSettings.workerTimeoutMs),
  progressIntervalMs: timing(defaultHiddenSettings.progressIntervalMs),
  rateCheckIntervalMs: timing(defaultHiddenSettings.rateCheckIntervalMs),
} satisfies Partial<Record<keyof HiddenSettings, SliderRange>>;

export type SliderSetting = keyof typeof sliderRanges;

const isBoolean = (value: unknown) => typeof value === 'boolean';
const inRange =
  ({ min, max, step }: SliderRange) =>
  (value: unknown) =>
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= min &&
    value <= max &&
    (value - min) % step === 0;

/** Whether a stored value can be taken for its setting. */
const valid: Record<keyof HiddenSettings, (value: unknown) => boolean> = {
  alwaysUseSlabFiles: isBoolean,
  uploadWorkers: (value) =>
    value === null || inRange({ min: WORKERS_MIN, max: WORKERS_MAX, step: 1 })(value),
  optimizedDownload: isBoolean,
  extractFromArchive: isBoolean,
  asyncFileWriting: isBoolean,
  chunkSizeMb: inRange(sliderRanges.chunkSizeMb),
  concurrentChunks: inRange(sliderRanges.concurrentChunks),
  retries: inRange(sliderRanges.retries),
  algorithm: (value) => downloadAlgorithms.includes(value as DownloadAlgorithm),
  xhrTimeoutMs: inRange(sliderRanges.xhrTimeoutMs),
  workerTimeoutMs: inRange(sliderRanges.workerTimeoutMs),
  progressIntervalMs: inRange(sliderRanges.progressIntervalMs),
  rateCheckIntervalMs: inRange(sliderRanges.rateCheckIntervalMs),
};

/**
 * The settings as stored in this browser, each one checked on its own: a value that is missing,
 * of the wrong kind or out of range (an older version's, or edited by hand) gives that
 * setting's default and leaves the others as they were.
 */
export function readHiddenSettings(): HiddenSettings {
  const stored = readStored<Record<string, unknown>>(storageKeys.hiddenSettings);
  const settings: Record<string, unknown> = { ...defaultHiddenSettings };
  if (stored && typeof stored === 'object') {
    for (const [name, isValid] of Object.entries(valid)) {
      if (isValid(stored[name])) settings[name] = stored[name];
    }
  }
  return settings as unknown as HiddenSettings;
}

let current: HiddenSettings | null = null;
const listeners = new Set<() => void>();

function changed(next: HiddenSettings | null) {
  current = next;
  for (const listener of listeners) listener();
}

/** The settings now, read from storage once and kept until they change. */
export function getHiddenSettings(): HiddenSettings {
  current ??= readHiddenSettings();
  return current;
}

export function updateHiddenSettings(change: Partial<HiddenSettings>): void {
  const next = { ...getHiddenSettings(), ...change };
  writeStored(storageKeys.hiddenSettings, next);
  changed(next);
}

/** Back to the defaults; nothing is stored, so a later version's defaults apply. */
export function resetHiddenSettings(): void {
  writeStored(storageKeys.hiddenSettings, null);
  changed({ ...defaultHiddenSettings });
}

/** Flips optimised download (Alt+Shift+P) and tells whether it is now on. */
export function toggleOptimizedDownload(): boolean {
  const on = !getHiddenSettings().optimizedDownload;
  updateHiddenSettings({ optimizedDownload: on });
  return on;
}

/** A change made in another tab applies here too, e.g. to the Share screen's next plan. */
function onStorage(event: StorageEvent) {
  if (event.key === storageKeys.hiddenSettings || event.key === null) changed(null);
}

function subscribe(onChange: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

export function useHiddenSettings(): HiddenSettings {
  return useSyncExternalStore(subscribe, getHiddenSettings);
}

/** Whether an upload packs its small files into slabs: always when the hidden setting is on. */
export function usesSlabFiles(
  hidden: HiddenSettings,
  contract: Pick<ContractSettings, 'use_slab_files'> | undefined,
): boolean {
  return hidden.alwaysUseSlabFiles || (contract?.use_slab_files ?? false);
}

/** How many requests an upload runs at once: the hidden setting when set, else the project's. */
export function uploadWorkersOf(
  hidden: HiddenSettings,
  contract: Pick<ContractSettings, 'number_of_upload_workers'>,
): number {
  return hidden.uploadWorkers ?? contract.number_of_upload_workers;
}

/**
 * The download engine's tuning from the download sliders. Chunk sizes are in decimal megabytes,
 * as sizes are shown everywhere else.
 */
export function downloadOptionsOf(hidden: HiddenSettings): Partial<DownloadOptions> {
  return {
    chunkSize: hidden.chunkSizeMb * 1_000_000,
    concurrentChunks: hidden.concurrentChunks,
    retries: hidden.retries,
    algorithm: hidden.algorithm,
    xhrTimeoutMs: hidden.xhrTimeoutMs,
    workerTimeoutMs: hidden.workerTimeoutMs,
    progressIntervalMs: hidden.progressIntervalMs,
    rateCheckIntervalMs: hidden.rateCheckIntervalMs,
  };
}
