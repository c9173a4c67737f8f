import { describe, expect, it } from 'vitest';
import { defaultFilesystemConstraints } from '@filerunner/protocol';
import { planUpload, type ByteSource } from '@filerunner/transfer';
import { listedNote, problemCsv, problemRows } from './problem-files';

const file = (path: string): ByteSource => ({
  path,
  size: 1,
  lastModified: 0,
  slice: () => new Blob(['x']),
});

describe('the problem files', () => {
  const plan = planUpload(
    [
      file('shoot/ok.mov'),
      file('shoot/what?.mov'),
      file('shoot/.DS_Store'),
      file('takes, day 1/d.txt '),
    ],
    { constraints: defaultFilesystemConstraints },
  );

  it('list files with problem names (in path order) with their reasons, then the files left out', () => {
    expect(problemRows(plan)).toEqual([
      {
        type: 'Invalid filename',
        filename: 'what?.mov',
        filepath: 'shoot/what?.mov',
        description:
          'Invalid path segment "what?.mov": Filename contains invalid characters or patterns',
      },
      {
        type: 'Excluded',
        filename: '.DS_Store',
        filepath: 'shoot/.DS_Store',
        description: 'System file, never sent (.DS_Store, Thumbs.db, ._*, system folders)',
      },
      {
        type: 'Excluded',
        filename: 'd.txt ',
        filepath: 'takes, day 1/d.txt ',
        description:
          'Invalid path segment "d.txt ": Filename contains invalid characters or patterns',
      },
    ]);
  });

  it('copy as CSV with the columns Type, Filename, Filepath, Description, quoted where needed', () => {
    const csv = problemCsv(problemRows(plan)).split('\r\n');
    expect(csv[0]).toBe('Type,Filename,Filepath,Description');
    expect(csv[3]).toBe(
      'Excluded,d.txt ,"takes, day 1/d.txt ","Invalid path segment ""d.txt "": Filename contains invalid characters or patterns"',
    );
    expect(csv).toHaveLength(5);
  });

  it('note the total when more than 100 are listed', () => {
    expect(listedNote(100)).toBeNull();
    expect(listedNote(2345)).toBe('Showing the first 100 of 2,345 files.');
  });
});
