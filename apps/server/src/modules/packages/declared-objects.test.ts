import { describe, expect, it } from 'vitest';
import {
  defaultUploadLimits,
  GiB,
  planLargeFile,
  planSlabs,
  type ByteSource,
  type UploadLimits,
} from '@filerunner/transfer';
import { PackageDeclaration, undeclaredObject } from './declared-objects';
import { fileObjectName } from './object-names';

// The store lets a grant write only what the engine's plan of the declared files would write:
// every object an honest plan names must be allowed at its full size, nothing else at all.

const source = (path: string, size: number): ByteSource => ({
  path,
  size,
  lastModified: 1_700_000_000_000,
  slice: () => new Blob([]),
});

const testLimits: UploadLimits = {
  ...defaultUploadLimits,
  largeFileThreshold: 100_000,
  baseChunkSize: 64 * 1024,
};

describe('a package declaration', () => {
  it('allows every segment the engine plans, each at its length, for sizes up to 1 TiB', () => {
    const files = [
      source('video/cut.mov', 150_000_001),
      source('video/Über Straße.mxf', 7 * GiB + 5),
      source('archive/day1.tar', 60 * GiB),
      source('archive/all', 1024 * GiB),
      source('small/clip.mov', 132_071),
    ];
    const declaration = new PackageDeclaration(
      files.map((f) => ({ userPath: f.path, size: f.size })),
    );
    for (const limits of [defaultUploadLimits, testLimits]) {
      for (const file of files) {
        const large = planLargeFile(file, limits)!;
        for (const segment of large.segments) {
          expect(declaration.allowanceFor(segment.name), segment.name).toEqual({
            maxBytes: segment.end - segment.start,
          });
        }
        const last = large.segments.at(-1)!;
        const beyond = last.name.replace(/\d{6}$/, String(last.index + 1).padStart(6, '0'));
        expect(declaration.allowanceFor(beyond)).toEqual({ refused: undeclaredObject });
      }
    }
  });

  it('allows each file its own object and slabs within the framing of its small files', () => {
    const files = [
      source('a.txt', 10),
      source('empty', 0),
      source(`${'deep/'.repeat(30)}long name.dpx`, 4100),
      source('Brief/Präsentation über.pdf', 70_000),
    ];
    const declared = files.map((f) => ({ userPath: f.path, size: f.size }));
    const declaration = new PackageDeclaration(declared);
    for (const file of files) {
      expect(declaration.allowanceFor(fileObjectName(file.path))).toEqual({ maxBytes: file.size });
    }
    // However the engine packs them (one slab, or one each), the slabs fit the declaration.
    for (const maxSlabFiles of [1000, 1]) {
      const slabs = planSlabs(files, { ...defaultUploadLimits, maxSlabFiles });
      for (const slab of slabs) {
        const allowance = declaration.allowanceFor(slab.name);
        expect(allowance).toMatchObject({ maxBytes: expect.any(Number) });
        expect((allowance as { maxBytes: number }).maxBytes).toBeGreaterThanOrEqual(slab.size);
      }
      const stored = slabs.reduce((sum, slab) => sum + slab.size, 0);
      expect(stored).toBeLessThanOrEqual(declaration.bytes);
    }
    // The framing is all the declaration adds: about 2 KiB a file.
    const sizes = files.reduce((sum, f) => sum + f.size, 0);
    expect(declaration.bytes - sizes).toBeLessThanOrEqual(files.length * 3 * 1024);
  });

  it('refuses names no declared file has', () => {
    const declaration = new PackageDeclaration([
      { userPath: 'video/cut.mov', size: 1000 },
      { userPath: 'a.txt', size: 10 },
    ]);
    for (const name of [
      'extra.bin',
      'a.txt',
      `${fileObjectName('b.txt')}`,
      'segments/other-0123456789abcdef.mov/1000/000000',
      // Segments too small (more than 250) or of a file too small to cut.
      'segments/cut-0123456789abcdef.mov/3/000000',
      'segments/cut-0123456789abcdef.mov/1000/000001',
      'segments/cut-0123456789abcdef.mov/1000/000000/more',
      'segments/cut-01234.56789.mov/1000/000000',
      'slabs/nested/x.tar',
    ]) {
      expect(declaration.allowanceFor(name), name).toEqual({ refused: undeclaredObject });
    }
    expect(declaration.allowanceFor('segments/cut-0123456789abcdef.mov/1000/000000')).toEqual({
      maxBytes: 1000,
    });
  });
});
