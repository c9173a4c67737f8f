import { describe, expect, it } from 'vitest';
import { exclusionReason } from './exclusions';

describe('exclusionReason', () => {
  it.each([
    '.DS_Store',
    'Shoot/Day 1/.DS_Store',
    'Thumbs.db',
    'stills/Thumbs.db',
    '._clip.mov',
    'Shoot/._clip.mov',
    '.Spotlight-V100/Store-V2/store.db',
    'Drive/.TemporaryItems/folders.501/x.tmp',
    '.Trashes/501/old.mov',
  ])('leaves out what the operating system left behind: %s', (path) => {
    expect(exclusionReason(path)).toBe('ignored');
  });

  it.each([
    'Shoot/🎬 Day 1/clip.mov',
    'party🎉.jpg',
    'love ❤️.txt',
    'flags/🇬🇧.png',
    'keycap 1️⃣.txt',
    'family 👨‍👩‍👧.jpg',
  ])('leaves out a path with an emoji: %s', (path) => {
    expect(exclusionReason(path)).toBe('emoji');
  });

  it.each([
    'Shoot/Day 1/clip.mov',
    'DS_Store.txt',
    'my.DS_Store.backup',
    'Thumbs.db.old',
    'notes/_draft.txt',
    '.hidden/config',
    '.Trashes',
    'Spotlight-V100/a.txt',
    'Brand™ Guide ©2024 ®.pdf',
    '資料/会議の議事録.txt',
    'Präsentation über.pdf',
    'digits 123 #1 *.txt',
  ])('sends everything else: %s', (path) => {
    expect(exclusionReason(path)).toBeNull();
  });
});
