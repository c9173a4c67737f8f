import { describe, expect, it } from 'vitest';
import type { UploadRecord, UploadStatus } from '@filerunner/transfer';
import { uploadOf } from './test-support/upload-records';
import {
  finishedUploadsCleared,
  hasActiveUploads,
  selectUploads,
  uploadChanged,
  uploadRemoved,
  uploadsReducer,
  type UploadsState,
} from './uploads-slice';

const record = (id: string, status: UploadStatus, completedBytes = 0): UploadRecord =>
  uploadOf(id, status, { totalFiles: 2, totalBytes: 100, completedBytes });

const run = (...actions: Parameters<typeof uploadsReducer>[1][]): UploadsState =>
  actions.reduce(uploadsReducer, uploadsReducer(undefined, { type: 'init' }));

describe('the uploads slice', () => {
  it('queues uploads in the order the engine first reports them, replacing each record', () => {
    const state = run(
      uploadChanged(record('a', 'UPLOADING')),
      uploadChanged(record('b', 'QUEUED')),
      uploadChanged(record('a', 'UPLOADING', 40)),
    );
    const uploads = selectUploads({ uploads: state });
    expect(uploads.map((u) => [u.id, u.status, u.progress.completedBytes])).toEqual([
      ['a', 'UPLOADING', 40],
      ['b', 'QUEUED', 0],
    ]);
  });

  it('drops a cancelled upload, and clears the sent ones on request', () => {
    const state = run(
      uploadChanged(record('a', 'COMPLETED')),
      uploadChanged(record('b', 'FAILED')),
      uploadChanged(record('c', 'FORCE_COMPLETED')),
      uploadChanged(record('d', 'QUEUED')),
      uploadRemoved('d'),
    );
    expect(state.queue).toEqual(['a', 'b', 'c']);
    expect(hasActiveUploads({ uploads: state })).toBe(true);
    const cleared = uploadsReducer(state, finishedUploadsCleared());
    expect(cleared.queue).toEqual(['b']);
    expect(Object.keys(cleared.records)).toEqual(['b']);
    expect(hasActiveUploads({ uploads: run(uploadChanged(record('a', 'COMPLETED'))) })).toBe(false);
  });
});
