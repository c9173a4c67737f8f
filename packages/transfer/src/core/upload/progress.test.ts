import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import type { UploadRecord } from './events';
import { UploadTracker } from './progress';

const file = (path: string): ByteSource => ({
  path,
  size: 10,
  lastModified: 0,
  slice: () => new Blob([]),
});

describe('UploadTracker', () => {
  it('tells of finished files at most every 250 ms, and of a status change at once', () => {
    let now = 0;
    const tracker = new UploadTracker(() => now, {
      id: 'p',
      name: 'Frames',
      totalFiles: 1000,
      totalBytes: 10_000,
    });
    const told: UploadRecord[] = [];
    tracker.subscribe((record) => told.push(record));
    tracker.move('UPLOADING');
    const files = Array.from({ length: 1000 }, (_, i) => file(`f${i}`));

    for (const f of files.slice(0, 500)) tracker.fileDone(f);
    // Records made within the same 250 ms are not told one by one.
    expect(told.map((r) => r.progress.completedFiles)).toEqual([0, 0]);
    expect(tracker.current.progress.completedFiles).toBe(500);
    now = 300;
    tracker.fileDone(files[500]!);
    expect(told.at(-1)!.progress.completedFiles).toBe(501);

    // A file retried and then done changes the status back at once.
    tracker.fileRetrying(files[501]!);
    expect(told.at(-1)!.status).toBe('RETRYING');
    tracker.fileDone(files[501]!);
    expect(told.at(-1)).toMatchObject({ status: 'UPLOADING', retryingFiles: [] });

    for (const f of files.slice(502)) tracker.fileDone(f);
    tracker.flush();
    expect(told.at(-1)!.progress.completedFiles).toBe(1000);
    const counts = told.map((r) => r.progress.completedFiles);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });
});
