import { describe, expect, it } from 'vitest';
import { coverageLabel, coveredPaths, receiptFile, verificationLabel } from './download-history';

describe("the download history's words", () => {
  const files = ['reel/A001.mov', 'reel/A002.mov', 'reel/notes.txt'];

  it('says all files, or how many of how many, and lists the ones delivered', () => {
    expect(coverageLabel({ covered: null, files_covered: 3 }, 3)).toBe('All files');
    expect(coverageLabel({ covered: [1], files_covered: 1 }, 3)).toBe('1 of 3 files');
    expect(coverageLabel({ covered: [], files_covered: 0 }, 1)).toBe('0 of 1 file');
    expect(coveredPaths({ covered: [0, 2] }, files)).toEqual(['reel/A001.mov', 'reel/notes.txt']);
    expect(coveredPaths({ covered: null }, files)).toEqual(files);
  });

  it("names the engine's check as the sender reads it", () => {
    expect(verificationLabel).toEqual({
      verified: 'Verified',
      unverified: 'Not verified',
      failed: 'Failed verification',
    });
  });

  it('saves a receipt as the signed text under a name any system accepts', () => {
    const file = receiptFile('Reel 4: day/night', 12, 'aGVhZA.cGF5bG9hZA.c2ln');
    expect(file.name).toBe('Reel 4_ day_night.receipt-12.jws');
    expect(decodeURIComponent(file.href.slice(file.href.indexOf(',') + 1))).toBe(
      'aGVhZA.cGF5bG9hZA.c2ln',
    );
  });
});
