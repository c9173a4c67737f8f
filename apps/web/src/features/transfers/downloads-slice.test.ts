import { describe, expect, it } from 'vitest';
import {
  downloadFinished,
  downloadProgressed,
  downloadQueued,
  downloadRetried,
  downloadsReducer,
  downloadStarted,
  nextQueuedDownload,
  type DownloadsState,
} from './downloads-slice';

const asked = (identifier: string) =>
  downloadQueued({
    identifier,
    receivedPackage: `Package ${identifier}`,
    packageSlug: identifier,
    packageFile: null,
    method: 'unpack',
    rootFolder: 'Dailies',
    unpackOption: 'yes',
    invalidFilenames: false,
  });

const progress = (receivedBytes: number) => ({
  totalBytes: 1000,
  receivedBytes,
  resumedBytes: 0,
  totalFiles: 2,
  completedFiles: 0,
  rate: 0,
  extractRate: 0,
  estimated: null,
});

const outcome = (failed: string[]) => ({
  verifiedFiles: 2 - failed.length,
  unverifiedFiles: [],
  failedFiles: failed.map((path) => ({ path, kind: 'write' as const, message: `${path}: no` })),
  fetchedBytes: 1000,
});

function stateAfter(...actions: Parameters<typeof downloadsReducer>[1][]): DownloadsState {
  return actions.reduce(downloadsReducer, downloadsReducer(undefined, { type: 'init' }));
}

describe('the downloads slice', () => {
  it('keeps a download’s percent from moving backward, and marks the current one', () => {
    const state = stateAfter(
      asked('a'),
      downloadStarted('a'),
      downloadProgressed({ id: 'a', progress: progress(456) }),
      downloadProgressed({ id: 'a', progress: progress(120) }),
    );
    expect(state.currentId).toBe('a');
    expect(state.records.a).toMatchObject({
      status: 'DOWNLOADING',
      percentComplete: 45,
      detarFile: true,
    });
  });

  it('classes an outcome: Completed, Partially Failed with the list, Failed when none arrived', () => {
    const finished = (failed: string[]) =>
      stateAfter(
        asked('a'),
        downloadStarted('a'),
        downloadFinished({ id: 'a', outcome: outcome(failed), totalFiles: 2 }),
      ).records.a!;
    expect(finished([])).toMatchObject({ status: 'COMPLETED', percentComplete: 100 });
    expect(finished(['x'])).toMatchObject({ status: 'PARTIALLY_FAILED', error: null });
    expect(finished(['x']).failedFiles.map((f) => f.path)).toEqual(['x']);
    expect(finished(['x', 'y'])).toMatchObject({
      status: 'FAILED',
      error: { kind: 'write', message: 'x: no' },
    });
  });

  it('puts a retried download ahead of the queued ones, behind the ones already run', () => {
    const state = stateAfter(
      asked('a'),
      asked('b'),
      asked('c'),
      asked('d'),
      downloadStarted('a'),
      downloadFinished({ id: 'a', outcome: outcome([]), totalFiles: 2 }),
      downloadStarted('b'),
      downloadFinished({ id: 'b', outcome: outcome(['x', 'y']), totalFiles: 2 }),
      downloadStarted('c'),
      downloadRetried({ id: 'b', placement: { method: 'tar', rootFolder: 'Dailies' } }),
    );
    expect(state.queue).toEqual(['a', 'c', 'b', 'd']);
    expect(state.records.b).toMatchObject({
      status: 'QUEUED',
      retryCount: 1,
      method: 'tar',
      detarFile: false,
      error: null,
      failedFiles: [],
    });
    expect(nextQueuedDownload({ downloads: state })?.identifier).toBe('b');
  });
});
