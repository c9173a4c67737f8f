import { describe, expect, it } from 'vitest';
import { RECEIPT_CHALLENGE_RANGES, RECEIPT_RANGE_BYTES } from '@filerunner/protocol';
import { sampleRanges } from './receipt-challenge';

// The sample a receipt challenge asks: bounded whatever the package, across its files, and any
// file with bytes can be asked, however small beside the others.

const GB = 1024 ** 3;

describe('sampleRanges', () => {
  it('asks at most 16 ranges of at most 64 KiB, inside their files, in order', () => {
    const files = Array.from({ length: 2002 }, (_, i) => ({
      userPath: `frames/${String(i).padStart(5, '0')}.dpx`,
      size: 135_000 + i,
    }));
    for (let run = 0; run < 50; run++) {
      const ranges = sampleRanges(files);
      expect(ranges.length).toBeGreaterThan(RECEIPT_CHALLENGE_RANGES / 2);
      expect(ranges.length).toBeLessThanOrEqual(RECEIPT_CHALLENGE_RANGES);
      for (const range of ranges) {
        const file = files.find((f) => f.userPath === range.path)!;
        expect(range.length).toBe(RECEIPT_RANGE_BYTES);
        expect(range.offset + range.length).toBeLessThanOrEqual(file.size);
      }
      const keys = ranges.map((r) => `${r.path}:${String(r.offset).padStart(9, '0')}`);
      expect(keys).toEqual([...keys].sort());
    }
  });

  it('samples a large package across its files, and every small file can be asked', () => {
    const files = [
      { userPath: 'a.mov', size: 40 * GB },
      { userPath: 'b.mov', size: 40 * GB },
      { userPath: 'notes.txt', size: 300 },
      { userPath: 'empty.txt', size: 0 },
    ];
    const asked = new Map<string, number>();
    for (let run = 0; run < 200; run++) {
      for (const range of sampleRanges(files))
        asked.set(range.path, (asked.get(range.path) ?? 0) + 1);
    }
    expect(asked.get('a.mov')).toBeGreaterThan(200);
    expect(asked.get('b.mov')).toBeGreaterThan(200);
    // The small file is chosen by file, not by byte, so it is asked (whole) in most challenges.
    expect(asked.get('notes.txt')).toBeGreaterThan(100);
    expect(asked.has('empty.txt')).toBe(false);
    expect(sampleRanges([{ userPath: 'empty.txt', size: 0 }])).toEqual([]);
  });
});
