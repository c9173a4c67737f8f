import { describe, expect, it } from 'vitest';
import {
  accessPeriodProblem,
  createPackageRequest,
  fileFolderClash,
  isPackagePath,
  packagePathProblem,
  sendMessages,
} from './packages';

describe('package paths', () => {
  it('accepts relative paths with any readable names', () => {
    for (const path of [
      'a.txt',
      'Präsentation/über.pdf',
      '資料/議事録.txt',
      'a b/c (1).txt',
      '😀.png',
      'CONSOLE.txt',
      'com10',
      'nul-ish/aux_.txt',
      'notes:v2.txt',
      '.hidden/.a',
      '...a',
    ]) {
      expect(isPackagePath(path), path).toBe(true);
    }
  });

  it('refuses what cannot be unpacked safely', () => {
    for (const path of [
      '',
      '/etc/passwd',
      'a//b',
      'a/',
      './a',
      'a/../b',
      '..',
      'a\0b',
      'bad\uD800half',
    ]) {
      expect(isPackagePath(path), JSON.stringify(path)).toBe(false);
    }
  });

  it('refuses names a Windows recipient would read as a separator, drive or device', () => {
    for (const [path, segment] of [
      ['..\\..\\AppData\\run.bat', '..\\..\\AppData\\run.bat'],
      ['a/b\\c', 'b\\c'],
      ['C:', 'C:'],
      ['docs/z:evil.txt', 'z:evil.txt'],
      ['CON', 'CON'],
      ['docs/nul.txt', 'nul.txt'],
      ['Aux.tar.gz', 'Aux.tar.gz'],
      ['prn/x', 'prn'],
      ['com1', 'com1'],
      ['LPT9.log', 'LPT9.log'],
      ['report./a.txt', 'report.'],
      ['a.txt ', 'a.txt '],
      ['a/.. ', '.. '],
      ['a/...', '...'],
    ] as const) {
      expect(packagePathProblem(path), path).toBe(
        `Invalid path segment "${segment}": Filename contains invalid characters or patterns`,
      );
      expect(isPackagePath(path), path).toBe(false);
    }
    expect(packagePathProblem('a/../b')).toBe(sendMessages.badPath);
    expect(packagePathProblem('Shoot/A001.mov')).toBeNull();
  });

  it('finds a file that is also a folder of another file', () => {
    expect(fileFolderClash(['a/b/c.txt', 'a/b'])).toBe('a/b');
    expect(fileFolderClash(['a/b.txt', 'a/c.txt', 'ab/c'])).toBeNull();
  });

  it('a send with such a clash is refused with the reason', () => {
    const result = createPackageRequest.safeParse({
      contract: 'x',
      name: 'n',
      recipients: [{ id: 1 }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 3600_000).toISOString(),
      expected_files: 2,
      expected_size: 2,
      intended_files: [
        { filename: 'docs', size: 1 },
        { filename: 'docs/a.txt', size: 1 },
      ],
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      `${sendMessages.fileFolderClash} (docs)`,
    ]);
  });
});

describe('access period', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const at = (iso: string) => new Date(iso);

  it('accepts a start within the current half hour and a span of exactly 15 days', () => {
    expect(
      accessPeriodProblem(at('2026-03-01T11:45:00Z'), at('2026-03-16T11:45:00Z'), now),
    ).toBeNull();
  });

  it('names the field and the rule that is broken', () => {
    expect(
      accessPeriodProblem(at('2026-03-02T00:00:00Z'), at('2026-03-01T13:00:00Z'), now),
    ).toEqual({
      field: 'valid_to',
      message: sendMessages.periodEndBeforeStart,
    });
    expect(
      accessPeriodProblem(at('2026-03-01T11:00:00Z'), at('2026-03-03T00:00:00Z'), now)?.message,
    ).toBe(sendMessages.periodStartInPast);
    expect(
      accessPeriodProblem(at('2026-03-01T12:00:00Z'), at('2026-03-16T12:00:01Z'), now)?.message,
    ).toBe(sendMessages.periodTooLong);
  });

  it('refuses a later start whose period would outlast the 15 days a package is stored', () => {
    // 23 to 25 days ahead: a span of two days, but past the storage limit.
    expect(
      accessPeriodProblem(at('2026-03-24T12:00:00Z'), at('2026-03-26T12:00:00Z'), now),
    ).toEqual({ field: 'valid_from', message: sendMessages.periodPastStorage });
    // Starting in 10 days, it may last 5 days, not 6.
    expect(
      accessPeriodProblem(at('2026-03-11T12:00:00Z'), at('2026-03-16T12:00:00Z'), now),
    ).toBeNull();
    expect(
      accessPeriodProblem(at('2026-03-11T12:00:00Z'), at('2026-03-17T12:00:00Z'), now),
    ).toEqual({ field: 'valid_to', message: sendMessages.periodPastStorage });
  });
});
