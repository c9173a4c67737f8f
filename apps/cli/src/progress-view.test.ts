import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { UploadRecord } from '@filerunner/transfer/node';
import { progressView } from './progress-view';

const record = (status: UploadRecord['status'], completedBytes: number): UploadRecord => ({
  id: 'abc',
  sentPackage: 'Dailies',
  startDate: 0,
  complete: status === 'COMPLETED',
  completeDate: null,
  retryingFiles: [],
  failedFiles: [],
  progress: {
    totalFiles: 4,
    totalBytes: 2_000_000_000,
    completedFiles: completedBytes === 2_000_000_000 ? 4 : 1,
    completedBytes,
    resumingBytes: 0,
    rate: 50_000_000,
    estimated: (2_000_000_000 - completedBytes) / 50_000_000,
  },
  status,
  pausedFor: status === 'PAUSED' ? 'person' : null,
  error: null,
  cancelled: false,
});

describe('progress when not on a terminal', () => {
  it('writes a line per status and otherwise one per interval, never more', () => {
    const stream = Object.assign(new PassThrough(), {
      isTTY: false,
    }) as unknown as NodeJS.WriteStream;
    let now = 0;
    const view = progressView({ stream, quiet: false, intervalMs: 10_000, now: () => now });
    view.show(record('QUEUED', 0));
    view.show(record('UPLOADING', 0));
    now = 4_000;
    view.show(record('UPLOADING', 200_000_000));
    now = 10_000;
    view.show(record('UPLOADING', 500_000_000));
    view.show(record('COMPLETED', 2_000_000_000));
    view.stop();
    expect(String((stream as unknown as PassThrough).read()).split('\n')).toEqual([
      'UPLOADING 0%, 0 bytes of 2 GB, 1 of 4 files, 400 Mb/s, about 40 s left',
      'UPLOADING 25%, 500 MB of 2 GB, 1 of 4 files, 400 Mb/s, about 30 s left',
      'COMPLETED 100%, 2 GB of 2 GB, 4 of 4 files',
      '',
    ]);
  });
});

describe('progress on a terminal', () => {
  it('draws a bar with the engine’s figures and leaves it at the last state', () => {
    const output = new PassThrough();
    const stream = Object.assign(output, {
      isTTY: true,
      columns: 120,
    }) as unknown as NodeJS.WriteStream;
    const view = progressView({ stream, quiet: false });
    view.show(record('UPLOADING', 0));
    view.show(record('UPLOADING', 500_000_000));
    view.show(record('COMPLETED', 2_000_000_000));
    view.stop();
    const drawn = String(output.read());
    expect(drawn).toContain('0% | 0 bytes of 2 GB | 1/4 files | 400 Mb/s 40 s left');
    expect(drawn).toContain('100% | 2 GB of 2 GB | 4/4 files | completed');
    expect(drawn).toContain('\u2588'.repeat(30));
  });

  it('shows nothing when quiet', () => {
    const output = new PassThrough();
    const stream = Object.assign(output, { isTTY: true }) as unknown as NodeJS.WriteStream;
    const view = progressView({ stream, quiet: true });
    view.show(record('UPLOADING', 0));
    view.stop();
    expect(output.read()).toBeNull();
  });
});
