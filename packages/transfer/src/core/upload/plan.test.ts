import {
  bulkRequest,
  defaultFilesystemConstraints,
  type FilesystemConstraints,
} from '@filerunner/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import { defaultUploadLimits, GiB, MB, type UploadLimits } from '../upload-limits';
import { exclusionReason } from './exclusions';
import { planUpload, type UploadPlan } from './plan';

/** A picked file whose bytes are never read: planning needs only path, size and time. */
const unread = (path: string, size: number): ByteSource => ({
  path,
  size,
  lastModified: 1_700_000_000_000,
  slice: () => {
    throw new Error('the planner must not read bytes');
  },
});

/** Every file the plan sends, however it sends it. */
const planned = (plan: UploadPlan): ByteSource[] => [
  ...plan.batches.flatMap((batch) => batch.files),
  ...plan.slabs.flatMap((slab) => slab.entries.map((entry) => entry.source)),
  ...plan.largeFiles.map((large) => large.source),
];

const smallLimits = fc
  .record({
    maxBatchItems: fc.integer({ min: 1, max: 6 }),
    maxBatchBytes: fc.integer({ min: 1, max: 2000 }),
    thresholdShare: fc.double({ min: 0, max: 1, noNaN: true }),
    baseChunkSize: fc.integer({ min: 1, max: 500 }),
    maxSloSegments: fc.integer({ min: 1, max: 20 }),
    maxSlabBytes: fc.integer({ min: 1024, max: 6000 }),
    maxSlabFiles: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ thresholdShare, ...limits }): UploadLimits => ({
    ...defaultUploadLimits,
    ...limits,
    // As in the product (150 MB and 300 MB): every small file fits a batch on its own.
    largeFileThreshold: Math.floor(limits.maxBatchBytes * thresholdShare),
    maxChunkSize: limits.baseChunkSize,
    maxSegmentSize: 1000,
  }));

const pickedFiles = fc.uniqueArray(
  fc.record({
    path: fc
      .tuple(
        fc.constantFrom('', 'Shoot/', 'Shoot/Day 1/', '.Trashes/', 'Präsentation/', 'x🎬/'),
        fc.constantFrom('a', 'b.mov', 'c:d.txt', '.DS_Store', '._b.mov', 'Thumbs.db', 'e🎉.jpg'),
        fc.integer({ min: 0, max: 9 }),
      )
      .map(([folder, name, n]) => `${folder}${n}-${name}`),
    size: fc.integer({ min: 0, max: 30_000 }),
  }),
  { selector: (file) => file.path, maxLength: 40 },
);

describe('planUpload', () => {
  it('sends every file but the excluded exactly once, within every batch limit', () => {
    fc.assert(
      fc.property(pickedFiles, smallLimits, fc.boolean(), (files, limits, useSlabFiles) => {
        const sources = files.map((f) => unread(f.path, f.size));
        const plan = planUpload(sources, { limits, useSlabFiles });

        const excluded = new Set(plan.excluded.map((e) => e.source));
        for (const { source, reason } of plan.excluded) {
          if (reason !== 'too_large') expect(reason).toBe(exclusionReason(source.path));
        }
        const sent = planned(plan);
        expect(new Set(sent).size).toBe(sent.length);
        expect(new Set([...sent, ...excluded]).size).toBe(sources.length);
        for (const source of sources) {
          if (!excluded.has(source)) expect(exclusionReason(source.path)).toBeNull();
        }
        expect(plan.totalFiles).toBe(sent.length);
        expect(plan.totalBytes).toBe(sent.reduce((sum, s) => sum + s.size, 0));

        for (const batch of plan.batches) {
          expect(batch.files.length).toBeGreaterThan(0);
          expect(batch.files.length).toBeLessThanOrEqual(limits.maxBatchItems);
          expect(batch.size).toBeLessThanOrEqual(limits.maxBatchBytes);
          for (const file of batch.files)
            expect(file.size).toBeLessThanOrEqual(limits.largeFileThreshold);
        }
        for (const slab of plan.slabs) {
          expect(slab.entries.length).toBeLessThanOrEqual(limits.maxSlabFiles);
          if (slab.entries.length > 1) expect(slab.size).toBeLessThanOrEqual(limits.maxSlabBytes);
        }
        for (const large of plan.largeFiles) {
          expect(large.source.size).toBeGreaterThan(limits.largeFileThreshold);
          expect(large.segments.length).toBeLessThanOrEqual(limits.maxSloSegments);
        }
        if (useSlabFiles) expect(plan.batches).toEqual([]);
        else expect(plan.slabs).toEqual([]);

        expect(plan.bulk).toEqual({
          batches: plan.batches.map((batch) => ({
            batch_name: batch.batch_name,
            files: batch.files.map((f) => ({ path: f.path, size: f.size })),
          })),
          large_file_total_size: plan.largeFiles.reduce((sum, l) => sum + l.source.size, 0),
          // Every object the plan PUTs, each with the bytes it will hold.
          objects: [
            ...plan.slabs.map((slab) => ({ name: slab.name, size: slab.size })),
            ...plan.largeFiles.flatMap((l) =>
              l.segments.map((s) => ({ name: s.name, size: s.end - s.start })),
            ),
          ],
        });
        expect(new Set(plan.batches.map((b) => b.batch_name)).size).toBe(plan.batches.length);
      }),
    );
  });

  it('plans the same files the same way in any order they were picked', () => {
    fc.assert(
      fc.property(
        pickedFiles,
        smallLimits,
        fc.boolean(),
        fc.integer(),
        (files, limits, slabs, seed) => {
          const sources = files.map((f) => unread(f.path, f.size));
          const shuffled = fc.sample(fc.shuffledSubarray(sources, { minLength: sources.length }), {
            seed,
            numRuns: 1,
          })[0]!;
          const shape = (plan: UploadPlan) => ({
            bulk: plan.bulk,
            slabs: plan.slabs.map((s) => [s.name, s.entries.map((e) => e.source.path)]),
            large: plan.largeFiles.flatMap((l) => l.segments.map((s) => s.name)),
          });
          expect(shape(planUpload(shuffled, { limits, useSlabFiles: slabs }))).toEqual(
            shape(planUpload(sources, { limits, useSlabFiles: slabs })),
          );
        },
      ),
    );
  });

  it('batches small files by 10 and 300 MB, and sends files over 150 MB as segments', () => {
    const frames = Array.from({ length: 25 }, (_, i) => unread(`frames/${1000 + i}.dpx`, MB));
    const rushes = [1, 2, 3].map((i) => unread(`rushes/${i}.mov`, 140 * MB));
    const edges = [unread('edge/at.bin', 150 * MB), unread('edge/over.bin', 150 * MB + 1)];
    const camera = unread('camera/A001.mxf', 50 * GiB);
    const plan = planUpload([...frames, ...rushes, ...edges, camera]);

    // In path order, a batch closes at the 11th file or when the next file would pass 300 MB.
    const paths = (files: ByteSource[]) => files.map((f) => f.path);
    expect(plan.batches.map((b) => [b.batch_name, paths(b.files), b.size])).toEqual([
      ['batch-1', ['edge/at.bin', ...paths(frames.slice(0, 9))], 159 * MB],
      ['batch-2', paths(frames.slice(9, 19)), 10 * MB],
      ['batch-3', [...paths(frames.slice(19)), 'rushes/1.mov', 'rushes/2.mov'], 286 * MB],
      ['batch-4', ['rushes/3.mov'], 140 * MB],
    ]);
    expect(plan.largeFiles.map((l) => [l.source.path, l.segmentSize, l.segments.length])).toEqual([
      ['camera/A001.mxf', 600 * MB, Math.ceil((50 * GiB) / (600 * MB))],
      ['edge/over.bin', 100 * MB, 2],
    ]);
    expect(plan.bulk.large_file_total_size).toBe(50 * GiB + 150 * MB + 1);
    // The body the server's bulk call validates.
    expect(bulkRequest.parse(plan.bulk)).toEqual(plan.bulk);
    expect(plan.totalFiles).toBe(31);
  });

  it('packs small files into slabs when slabs are on, and still segments large files', () => {
    const small = Array.from({ length: 2500 }, (_, i) =>
      unread(`frames/${10_000 + i}.exr`, 10_000),
    );
    const plan = planUpload([...small, unread('cut.mov', 200 * MB)], { useSlabFiles: true });
    expect(plan.bulk.batches).toEqual([]);
    expect(plan.slabs.map((s) => s.entries.length)).toEqual([1000, 1000, 500]);
    expect(plan.largeFiles.map((l) => l.source.path)).toEqual(['cut.mov']);
  });

  it('leaves out ignored files, emoji, impossible paths and files too large for a manifest', () => {
    const plan = planUpload([
      unread('Shoot/.DS_Store', 10),
      unread('Shoot/clip🎬.mov', 10),
      unread('Shoot/../escape.txt', 10),
      unread('Shoot/..\\..\\escape.bat', 10),
      unread('Shoot/CON.txt', 10),
      unread('Shoot/clip.mov', 10),
      unread('huge.raw', 250 * 5 * GiB + 1),
    ]);
    expect(plan.excluded.map((e) => [e.source.path, e.reason])).toEqual([
      ['Shoot/../escape.txt', 'invalid_path'],
      ['Shoot/..\\..\\escape.bat', 'invalid_path'],
      ['Shoot/.DS_Store', 'ignored'],
      ['Shoot/CON.txt', 'invalid_path'],
      ['Shoot/clip🎬.mov', 'emoji'],
      ['huge.raw', 'too_large'],
    ]);
    expect(planned(plan).map((s) => s.path)).toEqual(['Shoot/clip.mov']);
    expect(plan.bulk.batches.flatMap((b) => b.files.map((f) => f.path))).toEqual([
      'Shoot/clip.mov',
    ]);
  });

  it('flags names that break the filename constraints, per path segment, and still sends them', () => {
    const sources = [
      unread('Day:1/clip?.mov', 10),
      unread(`notes/${'n'.repeat(256)}.txt`, 10),
      unread('Shoot/a|b.txt', 10),
      unread('Shoot/fine.txt', 10),
    ];
    const plan = planUpload(sources, { constraints: defaultFilesystemConstraints });
    expect(plan.problemFiles.map((p) => [p.source.path, p.problems])).toEqual([
      [
        'Day:1/clip?.mov',
        [
          'Invalid path segment "Day:1": Filename contains invalid characters or patterns',
          'Invalid path segment "clip?.mov": Filename contains invalid characters or patterns',
        ],
      ],
      [
        'Shoot/a|b.txt',
        ['Invalid path segment "a|b.txt": Filename contains invalid characters or patterns'],
      ],
      [
        `notes/${'n'.repeat(256)}.txt`,
        [
          `Invalid path segment "${'n'.repeat(256)}.txt": Filename exceeds maximum length of 255 characters`,
        ],
      ],
    ]);
    expect(plan.totalFiles).toBe(4);
  });

  it('checks the constraints the server sends, flags included, and none without them', () => {
    const constraints: FilesystemConstraints = {
      max_filename_length: 8,
      invalid_filename_patterns: [{ regex: '^draft', flags: 'i' }],
    };
    const sources = [unread('DRAFT.txt', 1), unread('long-name.txt', 1), unread('ok.txt', 1)];
    const plan = planUpload(sources, { constraints });
    expect(plan.problemFiles.map((p) => p.problems)).toEqual([
      ['Invalid path segment "DRAFT.txt": Filename exceeds maximum length of 8 characters'],
      ['Invalid path segment "long-name.txt": Filename exceeds maximum length of 8 characters'],
    ]);
    expect(planUpload([unread('drafts.t', 1)], { constraints }).problemFiles[0]!.problems).toEqual([
      'Invalid path segment "drafts.t": Filename contains invalid characters or patterns',
    ]);
    expect(planUpload(sources).problemFiles).toEqual([]);
  });

  it('plans nothing for nothing picked', () => {
    expect(planUpload([])).toEqual({
      bulk: { batches: [], large_file_total_size: 0, objects: [] },
      batches: [],
      slabs: [],
      largeFiles: [],
      excluded: [],
      problemFiles: [],
      totalFiles: 0,
      totalBytes: 0,
    });
  });
});
