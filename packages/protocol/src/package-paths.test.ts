import { describe, expect, it } from 'vitest';
import { cleanObjectName } from './package-paths';

describe('cleanObjectName', () => {
  it.each([
    ['Brief/Präsentation über.pdf', 'Prasentation_uber-s1.pdf'],
    ['notes.txt', 'notes-s1.txt'],
    ['Dailies/Szene #4 (final).mov', 'Szene_4_final_-s1.mov'],
    ['資料/会議の議事録.txt', 'file-s1.txt'],
    ['.hidden', 'hidden-s1'],
    ['Makefile', 'Makefile-s1'],
    [`${'a'.repeat(200)}.${'x'.repeat(40)}`, `${'a'.repeat(80)}-s1.${'x'.repeat(16)}`],
  ])('stores %s under a URL-safe name with the suffix: %s', (path, name) => {
    expect(cleanObjectName(path, 's1')).toBe(name);
  });
});
