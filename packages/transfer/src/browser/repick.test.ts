import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../core/ports';
import { matchRepickedFiles, repickProblems, type RecordedFile } from './repick';

const source = (path: string, size: number, lastModified: number): ByteSource => ({
  path,
  size,
  lastModified,
  slice: () => new Blob(),
});

describe('matching files picked again to the recorded ones', () => {
  const recorded: RecordedFile[] = [
    { path: 'Shoot/A001.mov', size: 100, lastModified: 1_000 },
    { path: 'Shoot/A002.mov', size: 200, lastModified: 2_000 },
    { path: 'Shoot/notes.txt', size: 10, lastModified: 3_000 },
  ];

  it('resumes with every file when the same folder is picked, in the recorded order', () => {
    const picked = [...recorded].reverse().map((f) => source(f.path, f.size, f.lastModified));
    const match = matchRepickedFiles(recorded, picked);
    expect(match.matched.map((s) => s.path)).toEqual(recorded.map((f) => f.path));
    expect(match).toMatchObject({ missing: [], changed: [], unrecorded: [] });
  });

  it('names files that are gone, edited (size or date) or new', () => {
    const picked = [
      source('Shoot/A001.mov', 100, 1_500),
      source('Shoot/notes.txt', 11, 3_000),
      source('Shoot/extra.txt', 5, 4_000),
    ];
    const match = matchRepickedFiles(recorded, picked);
    expect(match.matched).toEqual([]);
    expect(match.missing).toEqual([recorded[1]]);
    expect(
      match.changed.map((c) => [c.recorded.path, c.picked.lastModified, c.picked.size]),
    ).toEqual([
      ['Shoot/A001.mov', 1_500, 100],
      ['Shoot/notes.txt', 3_000, 11],
    ]);
    expect(match.unrecorded.map((s) => s.path)).toEqual(['Shoot/extra.txt']);
  });

  it('does not take a file from another folder with the same name', () => {
    const match = matchRepickedFiles(recorded, [source('Other/A001.mov', 100, 1_000)]);
    expect(match.matched).toEqual([]);
    expect(match.missing).toHaveLength(3);
  });

  it('tells the person which files stop the resume, in path order, and ignores new ones', () => {
    const picked = [
      source('Shoot/notes.txt', 10, 3_500),
      source('Shoot/A001.mov', 100, 1_000),
      source('Shoot/extra.txt', 5, 4_000),
    ];
    expect(repickProblems(matchRepickedFiles(recorded, picked))).toEqual([
      { path: 'Shoot/A002.mov', reason: 'missing' },
      { path: 'Shoot/notes.txt', reason: 'changed' },
    ]);
    expect(
      repickProblems(
        matchRepickedFiles(recorded, [...picked, source('Shoot/A002.mov', 200, 2_000)]),
      ),
    ).toEqual([{ path: 'Shoot/notes.txt', reason: 'changed' }]);
  });
});
