import { describe, expect, it } from 'vitest';
import {
  defaultFilesystemConstraints as constraints,
  filenameProblem,
  safeFilename,
} from './filesystem';

describe('safeFilename', () => {
  it.each([
    ['report?.pdf', 'report_.pdf'],
    ['a<b>c:d"e|f*g.txt', 'a_b_c_d_e_f_g.txt'],
    ['notes. ', 'notes'],
    ['trailing.', 'trailing'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['tab\there.txt', 'tab_here.txt'],
  ])('suggests %j for %j', (name, suggestion) => {
    expect(filenameProblem(name, constraints)).not.toBeNull();
    expect(safeFilename(name, constraints)).toBe(suggestion);
    expect(filenameProblem(suggestion, constraints)).toBeNull();
  });

  it('keeps a name that is already fine', () => {
    expect(safeFilename('Grade notes.txt', constraints)).toBe('Grade notes.txt');
  });

  it('shortens a long name within the limit, keeping its extension', () => {
    const long = `${'a'.repeat(300)}.mov`;
    const safe = safeFilename(long, constraints)!;
    expect([...safe].length).toBe(255);
    expect(safe.endsWith('.mov')).toBe(true);
  });

  it("meets a server's own patterns by falling back to plain letters", () => {
    const strict = {
      ...constraints,
      invalid_filename_patterns: [...constraints.invalid_filename_patterns, { regex: '[#%]' }],
    };
    expect(safeFilename('take #2 100%.wav', strict)).toBe('take_2_100_.wav');
  });
});
