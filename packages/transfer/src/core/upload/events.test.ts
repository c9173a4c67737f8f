import { describe, expect, it } from 'vitest';
import { actionsOf, canMove, type UploadRecord, type UploadStatus } from './events';

const record = (status: UploadStatus, completedFiles = 0): UploadRecord => ({
  id: 'p',
  sentPackage: 'Dailies',
  startDate: 0,
  complete: false,
  completeDate: null,
  retryingFiles: [],
  failedFiles: [],
  progress: {
    totalFiles: 2,
    totalBytes: 10,
    completedFiles,
    completedBytes: 0,
    resumingBytes: 0,
    rate: 0,
    estimated: null,
  },
  status,
  pausedFor: status === 'PAUSED' ? 'person' : null,
  error: null,
  cancelled: false,
});

describe('an upload’s controls', () => {
  it('offer pause and resume while sending, and nothing while finalising', () => {
    expect(actionsOf(record('UPLOADING'))).toEqual({
      pause: true,
      resume: false,
      cancel: true,
      retry: false,
      complete: false,
    });
    expect(actionsOf(record('RETRYING')).pause).toBe(true);
    expect(actionsOf(record('PAUSED'))).toMatchObject({ pause: false, resume: true, cancel: true });
    for (const status of ['UPLOADED', 'COMPLETING', 'COMPLETED', 'FORCE_COMPLETED'] as const) {
      expect(Object.values(actionsOf(record(status))).some(Boolean), status).toBe(false);
    }
  });

  it('offer Complete after a failure only when a file arrived', () => {
    expect(actionsOf(record('FAILED', 0))).toMatchObject({
      retry: true,
      cancel: true,
      complete: false,
    });
    expect(actionsOf(record('FAILED', 1)).complete).toBe(true);
    expect(actionsOf(record('INCOMPLETE', 1))).toMatchObject({
      retry: true,
      cancel: true,
      complete: false,
    });
  });
});

describe('an upload’s statuses', () => {
  it('end only in COMPLETED or FORCE_COMPLETED, reached by finalising', () => {
    expect(canMove('UPLOADING', 'COMPLETED')).toBe(false);
    expect(canMove('UPLOADED', 'COMPLETING')).toBe(true);
    expect(canMove('COMPLETING', 'FORCE_COMPLETED')).toBe(true);
    expect(canMove('FAILED', 'COMPLETING')).toBe(true);
    expect(canMove('COMPLETED', 'UPLOADING')).toBe(false);
    expect(canMove('PAUSED', 'UPLOADED')).toBe(false);
  });
});
