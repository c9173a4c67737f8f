import { describe, expect, it } from 'vitest';
import { foundFileVerdict, OccupiedFolderError, sideNames, type FoundFile } from './found-files';

const judged = (found: Partial<FoundFile>) =>
  foundFileVerdict({
    size: 10,
    foundSize: null,
    finished: false,
    ours: false,
    replace: false,
    ...found,
  });

describe('foundFileVerdict', () => {
  it('writes where nothing is, and makes an empty file where one goes', () => {
    expect(judged({})).toBe('write');
    expect(judged({ size: 0 })).toBe('make empty');
  });

  it('stops at a file the download did not make, whatever its size', () => {
    expect(judged({ foundSize: 10 })).toBe('not ours');
    expect(judged({ foundSize: 3 })).toBe('not ours');
    expect(judged({ size: 0, foundSize: 3 })).toBe('not ours');
  });

  it('takes an empty file where an empty file goes as made: nothing is lost', () => {
    expect(judged({ size: 0, foundSize: 0 })).toBe('keep');
  });

  it('replaces a file not its own only when the person chose to', () => {
    expect(judged({ foundSize: 10, replace: true })).toBe('write');
    expect(judged({ size: 0, foundSize: 3, replace: true })).toBe('make empty');
  });

  it('keeps a file an earlier run finished, and writes again one of another size', () => {
    expect(judged({ foundSize: 10, finished: true })).toBe('keep');
    expect(judged({ foundSize: 4, finished: true })).toBe('write');
  });

  it('writes over a file the download began (claimed) without asking, keeping none of it', () => {
    // Half written, or whole but never checked: its bytes are fetched again.
    expect(judged({ foundSize: 4, ours: true })).toBe('write');
    expect(judged({ foundSize: 10, ours: true })).toBe('write');
    expect(judged({ size: 0, foundSize: 4, ours: true })).toBe('make empty');
  });
});

describe('OccupiedFolderError', () => {
  it('names a few of the files in the way and how many more, and stops the download', () => {
    const error = new OccupiedFolderError(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(error).toMatchObject({ kind: 'occupied', fatal: true });
    expect(error.message).toBe(
      'The folder already holds files this download did not write: "a", "b", "c", "d", "e" and 2 more.',
    );
  });
});

describe('sideNames', () => {
  it('offers the ASC MHL chain names beside a taken one, and nothing else any', () => {
    const names = sideNames('ascmhl/ascmhl_chain.xml');
    expect(names.slice(0, 2)).toEqual([
      'ascmhl/ascmhl_chain (2).xml',
      'ascmhl/ascmhl_chain (3).xml',
    ]);
    expect(new Set(names).size).toBe(names.length);
    for (const other of [
      'ascmhl/0001_Reel_2026-11-28_120000Z.mhl',
      'a/ascmhl/ascmhl_chain.xml',
      '.bashrc',
    ]) {
      expect(sideNames(other)).toEqual([]);
    }
  });
});
