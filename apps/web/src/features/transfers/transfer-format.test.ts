import { describe, expect, it } from 'vitest';
import { percentOf, progressFigures } from './transfer-format';

describe('transfer figures for people', () => {
  it('says files, bytes, rate and time left; rate and time only while moving', () => {
    const progress = {
      totalFiles: 60,
      totalBytes: 6_000_000,
      completedFiles: 12,
      completedBytes: 1_200_000,
      resumingBytes: 0,
      rate: 1_200_000,
      estimated: 4,
    };
    expect(progressFigures(progress, true)).toEqual({
      files: '12 of 60 files',
      bytes: '1.2 MB of 6 MB',
      rate: '9.6 Mb/s',
      timeLeft: '4 s left',
    });
    expect(progressFigures({ ...progress, totalFiles: 1 }, false)).toEqual({
      files: '12 of 1 file',
      bytes: '1.2 MB of 6 MB',
      rate: null,
      timeLeft: null,
    });
    expect(progressFigures({ ...progress, totalFiles: 20_000 }, true).files).toBe(
      '12 of 20,000 files',
    );
    expect(progressFigures({ ...progress, estimated: null }, true).timeLeft).toBeNull();
  });

  it('rounds percent down, so 100 % means every byte', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
  });
});
