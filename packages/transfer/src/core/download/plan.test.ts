import { describe, expect, it } from 'vitest';
import { chunksOf, placementsOf, planDownload, rangesToFetch } from './plan';
import type { DownloadDescriptor } from './ports';
import { RangeSet } from './ranges';
import { layoutTar } from '../tar/tar-layout';

const GiB = 2 ** 30;
const MTIME = 1_767_225_600;

/** A package laid out without bytes: a long PAX path, a file past 8 GiB, a small one after. */
function hugePackage(): DownloadDescriptor {
  const files = [
    { path: `${'long-folder-name/'.repeat(20)}clip.mov`, size: 1234, xxh128: null },
    { path: 'A001/A001C003.mxf', size: 9 * GiB + 17, xxh128: null },
    { path: 'after.txt', size: 10, xxh128: null },
  ];
  const layout = layoutTar(files.map((f) => ({ ...f, mtime: MTIME })));
  return {
    downloadUrl: 'https://store.test/pkg.tar',
    filename: 'Huge.tar',
    size: layout.size,
    tar: { mtime: MTIME, files },
  };
}

describe('placementsOf', () => {
  it('maps a range across the end of a file past 8 GiB to both files, skipping framing', () => {
    const plan = planDownload(hugePackage(), 'unpack');
    const big = plan.layout!.entries[1]!;
    const next = plan.layout!.entries[2]!;
    // Both long entries carry PAX headers (the path, the size).
    expect(plan.layout!.entries[0]!.headerLength).toBeGreaterThan(512);
    expect(big.headerLength).toBeGreaterThan(512);
    const start = big.dataOffset + 9 * GiB + 7;
    const placements = placementsOf(plan, start, next.dataOffset + 4 - start);
    expect(placements).toEqual([
      { index: 1, offset: 9 * GiB + 7, from: 0, length: 10 },
      { index: 2, offset: 0, from: next.dataOffset - start, length: 4 },
    ]);
  });

  it('maps everything to target 0 at the same offsets when the .tar is kept whole', () => {
    const plan = planDownload(hugePackage(), 'tar');
    expect(plan.targets).toEqual([{ index: 0, path: 'Huge.tar', size: hugePackage().size }]);
    expect(placementsOf(plan, 5000, 20)).toEqual([{ index: 0, offset: 5000, from: 0, length: 20 }]);
  });

  it('refuses a grant whose members do not lay out its size', () => {
    expect(() => planDownload({ ...hugePackage(), size: 12 }, 'unpack')).toThrow(
      expect.objectContaining({
        name: 'DownloadFailedError',
        message: expect.stringMatching(/not 12/),
      }),
    );
  });
});

describe('planDownload of a hostile file list', () => {
  const withFiles = (paths: string[], size = 1): DownloadDescriptor => ({
    downloadUrl: 'https://store.test/pkg.tar',
    filename: 'Hostile.tar',
    size: 0,
    tar: { mtime: MTIME, files: paths.map((path) => ({ path, size, xxh128: null })) },
  });

  it('refuses escaping names and names given twice before any target exists', () => {
    const plan = () =>
      planDownload(
        withFiles(['ok.txt', '..\\..\\Startup\\run.bat', 'NUL.txt', 'OK.TXT']),
        'unpack',
      );
    expect(plan).toThrow(
      expect.objectContaining({
        name: 'DownloadFailedError',
        kind: 'name',
        message:
          'The package cannot be unpacked safely, so nothing was written: names that would leave ' +
          'the folder or cannot exist on every system: "..\\\\..\\\\Startup\\\\run.bat", "NUL.txt"; ' +
          'names given twice: "OK.TXT".',
      }),
    );
  });

  it('says a broken member is broken instead of throwing a RangeError', () => {
    expect(() => planDownload(withFiles(['a.txt'], -1), 'tar')).toThrow(
      expect.objectContaining({
        name: 'DownloadFailedError',
        message: expect.stringContaining("The package's file list is broken: tar entry 0"),
      }),
    );
  });
});

describe('rangesToFetch and chunksOf', () => {
  it('joins files over framing, skips what is written, and cuts chunks', () => {
    const plan = planDownload(hugePackage(), 'unpack');
    const [a, big, after] = plan.layout!.entries;
    const written = new RangeSet([[0, 9 * GiB]]);
    const ranges = rangesToFetch(plan, (index) =>
      index === 1 ? written.missing(big!.source.size) : [[0, plan.targets[index]!.size]],
    );
    expect(ranges).toEqual([
      [a!.dataOffset, a!.dataOffset + 1234],
      [big!.dataOffset + 9 * GiB, after!.dataOffset + 10],
    ]);
    const chunks = chunksOf(ranges, 1100);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [a!.dataOffset, a!.dataOffset + 1100],
      [a!.dataOffset + 1100, a!.dataOffset + 1234],
      [big!.dataOffset + 9 * GiB, after!.dataOffset + 10],
    ]);
  });
});

describe('RangeSet', () => {
  it('counts only new bytes and merges touching ranges', () => {
    const set = new RangeSet();
    expect(set.add(10, 20)).toBe(10);
    expect(set.add(30, 40)).toBe(10);
    expect(set.add(15, 35)).toBe(10);
    expect(set.add(0, 10)).toBe(10);
    expect(set.toJSON()).toEqual([[0, 40]]);
    expect(set.missing(50)).toEqual([[40, 50]]);
  });
});
