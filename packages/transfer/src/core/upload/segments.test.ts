import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import {
  defaultUploadLimits,
  GiB,
  largeFileChunkSize,
  MB,
  type UploadLimits,
} from '../upload-limits';
import { planLargeFile, segmentSizeFor } from './segments';

/** A picked file whose bytes are never read: segment plans need only its path and size. */
const unread = (path: string, size: number, lastModified = 1_700_000_000_000): ByteSource => ({
  path,
  size,
  lastModified,
  slice: () => {
    throw new Error('the planner must not read bytes');
  },
});

describe('the chunk-size table', () => {
  // [file size, segment size]: each step of the table at its first byte and the byte before.
  const boundaries: [number, number][] = [
    [150 * MB + 1, 100 * MB],
    [GiB - 1, 100 * MB],
    // 1/20 and 1/10 of 600 MB are below the 100 MB base, so the base wins.
    [GiB, 100 * MB],
    [5 * GiB - 1, 100 * MB],
    [5 * GiB, 100 * MB],
    [10 * GiB - 1, 100 * MB],
    [10 * GiB, 120 * MB],
    [20 * GiB - 1, 120 * MB],
    [20 * GiB, 240 * MB],
    [30 * GiB - 1, 240 * MB],
    [30 * GiB, 360 * MB],
    [40 * GiB - 1, 360 * MB],
    [40 * GiB, 480 * MB],
    [50 * GiB - 1, 480 * MB],
    [50 * GiB, 600 * MB],
    [100 * GiB, 600 * MB],
  ];

  it.each(boundaries)('cuts a file of %i bytes into segments of %i', (fileSize, segmentSize) => {
    expect(largeFileChunkSize(fileSize)).toBe(segmentSize);
    expect(segmentSizeFor(fileSize, defaultUploadLimits)).toBe(segmentSize);
    const plan = planLargeFile(unread('video/cut.mov', fileSize), defaultUploadLimits)!;
    expect(plan.segmentSize).toBe(segmentSize);
    expect(plan.segments.length).toBe(Math.ceil(fileSize / segmentSize));
    expect(plan.segments.length).toBeLessThanOrEqual(250);
  });

  it('uses the step fractions of any maximum, never below the base size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 * MB }),
        fc.integer({ min: 1, max: 2000 * MB }),
        fc.integer({ min: 0, max: 200 * GiB }),
        (baseChunkSize, maxChunkSize, fileSize) => {
          const limits = { ...defaultUploadLimits, baseChunkSize, maxChunkSize };
          const size = largeFileChunkSize(fileSize, limits);
          expect(size).toBeGreaterThanOrEqual(baseChunkSize);
          expect(size === baseChunkSize || size <= maxChunkSize).toBe(true);
        },
      ),
    );
  });
});

describe('segmentSizeFor', () => {
  it('grows segments past the table when a file needs more than 250 of them', () => {
    // 600 MB segments hold 150 GB in 250; 200 GB needs 800 MB ones.
    expect(segmentSizeFor(200_000 * MB, defaultUploadLimits)).toBe(800 * MB);
    const plan = planLargeFile(unread('raw.mxf', 200_000 * MB), defaultUploadLimits)!;
    expect(plan.segments.length).toBe(250);
  });

  it('sends up to 250 segments of the largest object storage takes, and no more', () => {
    const largest = 250 * defaultUploadLimits.maxSegmentSize;
    expect(segmentSizeFor(largest, defaultUploadLimits)).toBe(5 * GiB);
    expect(segmentSizeFor(largest + 1, defaultUploadLimits)).toBeNull();
    expect(planLargeFile(unread('too/big.raw', largest + 1), defaultUploadLimits)).toBeNull();
  });
});

describe('planLargeFile', () => {
  const smallLimits = fc.record({
    baseChunkSize: fc.integer({ min: 1, max: 64 }),
    maxChunkSize: fc.integer({ min: 1, max: 256 }),
    maxSloSegments: fc.integer({ min: 1, max: 12 }),
    maxSegmentSize: fc.integer({ min: 1, max: 512 }),
  });

  it('covers every byte once, in order, with at most maxSloSegments segments', () => {
    fc.assert(
      fc.property(smallLimits, fc.integer({ min: 1, max: 5000 }), (small, fileSize) => {
        const limits: UploadLimits = { ...defaultUploadLimits, ...small };
        const plan = planLargeFile(unread('a/b.bin', fileSize), limits);
        if (plan === null) {
          expect(fileSize).toBeGreaterThan(limits.maxSloSegments * limits.maxSegmentSize);
          return;
        }
        const { segments, segmentSize } = plan;
        expect(segments.length).toBeLessThanOrEqual(limits.maxSloSegments);
        expect(segmentSize).toBeGreaterThanOrEqual(
          Math.min(limits.baseChunkSize, limits.maxSegmentSize),
        );
        expect(segmentSize).toBeLessThanOrEqual(limits.maxSegmentSize);
        expect(segments[0]!.start).toBe(0);
        expect(segments.at(-1)!.end).toBe(fileSize);
        segments.forEach((segment, i) => {
          expect(segment.index).toBe(i);
          expect(segment.end).toBeGreaterThan(segment.start);
          if (i > 0) expect(segment.start).toBe(segments[i - 1]!.end);
          if (i < segments.length - 1) expect(segment.end - segment.start).toBe(segmentSize);
        });
        expect(new Set(segments.map((s) => s.name)).size).toBe(segments.length);
      }),
    );
  });

  it('names segments under one folder per file, URL-safe, sorted in manifest order', () => {
    const plan = planLargeFile(
      unread('Dailies/Tag 1/Szene #4 (über).mov', 3 * GiB),
      defaultUploadLimits,
    )!;
    const folder = plan.segments[0]!.name.replace(/\/[^/]+$/, '');
    expect(folder).toMatch(/^segments\/Szene_4_uber_-[0-9a-f]+\.mov\/100000000$/);
    for (const segment of plan.segments) {
      expect(segment.name).toMatch(/^[A-Za-z0-9._/-]+$/);
      expect(segment.name.startsWith(`${folder}/`)).toBe(true);
    }
    const names = plan.segments.map((s) => s.name);
    expect([...names].sort()).toEqual(names);
  });

  it('names the same file the same way again, and a changed file differently', () => {
    const name = (source: ByteSource) =>
      planLargeFile(source, defaultUploadLimits)!.segments[0]!.name;
    const file = unread('cut.mov', 2 * GiB);
    expect(name(unread('cut.mov', 2 * GiB))).toBe(name(file));
    expect(name(unread('cut.mov', 2 * GiB, 1_700_000_001_000))).not.toBe(name(file));
    expect(name(unread('other/cut.mov', 2 * GiB))).not.toBe(name(file));
  });
});
