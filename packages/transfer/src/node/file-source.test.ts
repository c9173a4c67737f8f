import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { xxhash128 } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkPaths } from './file-source';
import { XxhashFileHasher } from './xxhash-file-hasher';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fr-walk-'));
  await mkdir(path.join(dir, 'shoot/day 1/cam A'), { recursive: true });
  await writeFile(path.join(dir, 'shoot/day 1/cam A/clip.mov'), 'clip bytes');
  await writeFile(path.join(dir, 'shoot/notes.txt'), 'notes');
  await symlink(path.join(dir, 'shoot/notes.txt'), path.join(dir, 'shoot/linked.txt'));
  await symlink(path.join(dir, 'nowhere'), path.join(dir, 'shoot/broken'));
  await writeFile(path.join(dir, 'cover.pdf'), 'pdf');
  await utimes(path.join(dir, 'cover.pdf'), 1_700_000_000, 1_700_000_000);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('walkPaths', () => {
  it('keeps a folder’s name and inner folders as package paths, and a file’s own name', async () => {
    const sources = await walkPaths([path.join(dir, 'shoot'), path.join(dir, 'cover.pdf')]);
    expect(sources.map((s) => s.path)).toEqual([
      'cover.pdf',
      'shoot/day 1/cam A/clip.mov',
      'shoot/linked.txt',
      'shoot/notes.txt',
    ]);
    const clip = sources[1]!;
    expect(clip.size).toBe(10);
    expect(await clip.slice(5, 10).text()).toBe('bytes');
    expect(sources[0]!.lastModified).toBe(1_700_000_000_000);
  });
});

describe('XxhashFileHasher', () => {
  it('hashes a file in pieces as hash-wasm hashes it whole', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    await writeFile(path.join(dir, 'big.bin'), bytes);
    await writeFile(path.join(dir, 'empty.bin'), '');
    const [big, empty] = await walkPaths([path.join(dir, 'big.bin'), path.join(dir, 'empty.bin')]);
    const hasher = new XxhashFileHasher();
    expect(await hasher.xxh128(big!)).toBe(await xxhash128(bytes));
    // The published XXH128 of no bytes.
    expect(await hasher.xxh128(empty!)).toBe('99aa06d3014798d86001c324468d497f');
  });
});
