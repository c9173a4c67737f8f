import { describe, expect, it } from 'vitest';
import { defaultUploadLimits, GiB, largeFileChunkSize, MB } from './upload-limits';

describe('largeFileChunkSize', () => {
  it('follows the spec table, never below the base size', () => {
    expect(largeFileChunkSize(200 * MB)).toBe(100 * MB);
    expect(largeFileChunkSize(GiB - 1)).toBe(100 * MB);
    // 1/20 and 1/10 of 600 MB are below the 100 MB base, so the base wins.
    expect(largeFileChunkSize(GiB)).toBe(100 * MB);
    expect(largeFileChunkSize(5 * GiB)).toBe(100 * MB);
    expect(largeFileChunkSize(10 * GiB)).toBe(120 * MB);
    expect(largeFileChunkSize(20 * GiB)).toBe(240 * MB);
    expect(largeFileChunkSize(30 * GiB)).toBe(360 * MB);
    expect(largeFileChunkSize(40 * GiB)).toBe(480 * MB);
    expect(largeFileChunkSize(50 * GiB)).toBe(600 * MB);
    expect(largeFileChunkSize(500 * GiB)).toBe(600 * MB);
  });

  it('keeps every file up to 50 GiB within one manifest of 250 segments', () => {
    for (let size = 150 * MB; size <= 50 * GiB; size += 97 * MB) {
      expect(Math.ceil(size / largeFileChunkSize(size))).toBeLessThanOrEqual(
        defaultUploadLimits.maxSloSegments,
      );
    }
  });
});
