import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderSink, PART_SUFFIX, sinkErrorOf } from './folder-sink';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const newFolder = () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'folder-sink-'));
  folders.push(folder);
  return folder;
};
const bytes = (text: string) => new TextEncoder().encode(text);

describe('FolderSink', () => {
  it('writes out of order into a part file and renames it when closed', async () => {
    const folder = newFolder();
    const sink = new FolderSink(folder, 'unpack');
    const targets = [
      { index: 0, path: 'Shoot/Day 1/ünï.txt', size: 10 },
      { index: 1, path: 'empty/none.txt', size: 0 },
    ];
    const { resumable, failed } = await sink.open(targets);
    expect(resumable.size).toBe(0);
    expect(failed.size).toBe(0);
    expect(readFileSync(path.join(folder, 'empty/none.txt'))).toHaveLength(0);
    await sink.write(0, 5, bytes('56789'));
    await sink.write(0, 0, bytes('01234'));
    const file = path.join(folder, 'Shoot/Day 1/ünï.txt');
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(file + PART_SUFFIX, 'utf8')).toBe('0123456789');
    await sink.close(0);
    expect(readFileSync(file, 'utf8')).toBe('0123456789');
    expect(existsSync(file + PART_SUFFIX)).toBe(false);
    expect(await (await sink.read(0)).text()).toBe('0123456789');
    await sink.discard(0);
    expect(existsSync(file)).toBe(false);
  });

  it('finds part files and finished files again on a later run', async () => {
    const folder = newFolder();
    const first = new FolderSink(folder, 'unpack');
    const targets = [
      { index: 0, path: 'a.bin', size: 4 },
      { index: 1, path: 'b.bin', size: 4 },
      { index: 2, path: 'c.bin', size: 4 },
    ];
    await first.open(targets);
    await first.write(0, 0, bytes('aaaa'));
    await first.close(0);
    await first.write(1, 0, bytes('bb'));
    await first.dispose();
    const again = new FolderSink(folder, 'unpack');
    const { resumable } = await again.open(targets);
    expect([...resumable].sort()).toEqual([0, 1]);
    await again.write(1, 2, bytes('BB'));
    await again.close(1);
    expect(readFileSync(path.join(folder, 'b.bin'), 'utf8')).toBe('bbBB');
  });

  it('fails a name the disk cannot hold, and only that file', async () => {
    const folder = newFolder();
    const sink = new FolderSink(folder, 'unpack');
    const { failed } = await sink.open([
      { index: 0, path: `${'x'.repeat(300)}.txt`, size: 0 },
      { index: 1, path: 'fine.txt', size: 3 },
    ]);
    expect(failed.get(0)).toMatchObject({ kind: 'name', fatal: false });
    await expect(sink.write(0, 0, bytes('abc'))).rejects.toMatchObject({ kind: 'name' });
  });

  // Permission is classed by code, not by a read-only folder: these tests run as root.
  it('classes a full disk and a refused folder as fatal, a long name as one file failing', () => {
    const denied = Object.assign(new Error('denied'), { code: 'EACCES' });
    expect(sinkErrorOf(denied, 'a.bin')).toMatchObject({ kind: 'write', fatal: true });
    const full = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    expect(sinkErrorOf(full, 'a.bin')).toMatchObject({ kind: 'quota_exceeded', fatal: true });
    const long = Object.assign(new Error('too long'), { code: 'ENAMETOOLONG' });
    expect(sinkErrorOf(long, 'a.bin')).toMatchObject({ kind: 'name', fatal: false });
  });
});
