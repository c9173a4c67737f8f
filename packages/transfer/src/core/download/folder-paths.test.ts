import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { folderPathKey, staysInFolder, unpackableMembers } from './folder-paths';

// The folder a download was given, as Windows and as Linux or macOS would resolve a name in it.
const FOLDERS = [
  { path: path.win32, folder: 'C:\\Users\\ana\\Downloads\\Ep 104' },
  { path: path.posix, folder: '/home/ana/Ep 104' },
] as const;

/** Where each platform puts `name` joined onto the folder, and whether that is inside it. */
function landsInside(name: string): boolean {
  return FOLDERS.every(({ path: platform, folder }) => {
    const relative = platform.relative(folder, platform.resolve(folder, name));
    const up = relative === '..' || relative.startsWith(`..${platform.sep}`);
    return relative !== '' && !up && !platform.isAbsolute(relative);
  });
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

// Pieces a hostile sender builds names of: separators of both kinds, drive letters, dots,
// reserved device names in any case, trailing dots and spaces, and plain letters.
const hostilePiece = fc.constantFrom(
  '/',
  '\\',
  '..',
  '.',
  'C:',
  'c:',
  ':',
  ' ',
  'CON',
  'nul',
  'Com1',
  'lpt9',
  'aux.txt',
  'a',
  'Ep',
  'ü',
  '\u0000',
  '~',
);
const hostileName = fc.array(hostilePiece, { minLength: 1, maxLength: 10 }).map((p) => p.join(''));

const plainSegment = fc
  .array(fc.constantFrom('a', 'Z', '7', '-', '_', ' ', '.', 'ä', '日', '𝄞', '(', ')'), {
    minLength: 1,
    maxLength: 12,
  })
  .map((chars) => chars.join(''))
  .filter((s) => !/^[. ]|[. ]$/.test(s) && !WINDOWS_RESERVED.test(s));

describe('staysInFolder', () => {
  it('accepts only names that land inside the folder on Windows and on Unix', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        if (staysInFolder(name)) expect(landsInside(name), name).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses backslashes, drive letters, absolute paths and dot segments', () => {
    for (const name of [
      '..\\..\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\run.bat',
      'a\\b.txt',
      'C:',
      'C:evil.txt',
      'c:/Windows/win.ini',
      'notes.txt:hidden',
      '/etc/passwd',
      '\\\\server\\share\\x',
      '../x',
      'a/../../x',
      './a',
      'a//b',
      'a/',
      '',
    ]) {
      expect(staysInFolder(name), name).toBe(false);
    }
  });

  it('refuses Windows device names in any case, with or without an extension, in any segment', () => {
    const device = fc.constantFrom('CON', 'PRN', 'AUX', 'NUL', 'COM1', 'COM9', 'LPT1', 'LPT9');
    const anyCase = fc
      .tuple(device, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }))
      .map(([name, upper]) =>
        [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
      );
    const extension = fc.constantFrom('', '.txt', '.tar.gz', '.');
    fc.assert(
      fc.property(
        fc.array(plainSegment, { maxLength: 3 }),
        anyCase,
        extension,
        (folders, name, ext) => {
          expect(staysInFolder([...folders, name + ext].join('/'))).toBe(false);
        },
      ),
    );
  });

  it('refuses a segment ending in a dot or a space, which Windows would strip', () => {
    fc.assert(
      fc.property(
        plainSegment,
        fc.constantFrom('.', ' ', '..', ' .'),
        fc.boolean(),
        (segment, tail, asFolder) => {
          const name = asFolder ? `${segment}${tail}/file.txt` : `${segment}${tail}`;
          expect(staysInFolder(name)).toBe(false);
        },
      ),
    );
  });

  it('accepts the names people give their files, in folders', () => {
    fc.assert(
      fc.property(fc.array(plainSegment, { minLength: 1, maxLength: 5 }), (segments) => {
        expect(staysInFolder(segments.join('/'))).toBe(true);
      }),
    );
    for (const name of ['.bashrc', 'Shoot/Day 1/ünï.txt', 'CONFIG.sys', 'console.log', 'nul1']) {
      expect(staysInFolder(name), name).toBe(true);
    }
  });
});

describe('unpackableMembers', () => {
  it('finds names that are one file where case or Unicode form does not count', () => {
    const composed = 'Sh\u00f6t.exr';
    const decomposed = 'Sho\u0308t.exr';
    expect(folderPathKey(composed)).toBe(folderPathKey(decomposed));
    expect(unpackableMembers(['a/One.txt', 'a/one.TXT', composed, decomposed, 'b'])).toEqual({
      outside: [],
      duplicates: ['a/one.TXT', decomposed],
      clash: null,
    });
    expect(unpackableMembers(['x.txt', 'x.txt'])?.duplicates).toEqual(['x.txt']);
  });

  it('names refused names and a file that is also a folder', () => {
    expect(unpackableMembers(['ok.txt', 'a\\..\\..\\x', 'Clip', 'clip/1.exr'])).toEqual({
      outside: ['a\\..\\..\\x'],
      duplicates: [],
      clash: 'clip',
    });
  });

  it('passes any list of distinct safe names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.array(plainSegment, { minLength: 1, maxLength: 1 }), {
          selector: (s) => folderPathKey(s[0]!),
          maxLength: 20,
        }),
        (names) => {
          expect(unpackableMembers(names.map((n) => `shots/${n[0]!}`))).toBeNull();
        },
      ),
    );
  });
});
