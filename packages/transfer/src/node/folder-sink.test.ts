import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { xxhash128 } from 'hash-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { OccupiedFolderError } from '../core/download/found-files';
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
    // The ledger says the first run finished a.bin and claimed the names: b.bin's part is its own.
    const { resumable } = await again.open(targets, undefined, new Set([0]), true);
    expect([...resumable].sort()).toEqual([0, 1]);
    await again.write(1, 2, bytes('BB'));
    await again.close(1);
    expect(readFileSync(path.join(folder, 'b.bin'), 'utf8')).toBe('bbBB');
  });

  it('hashes a file as it is written, bytes out of order included', async () => {
    const folder = newFolder();
    const sink = new FolderSink(folder, 'unpack');
    const content = bytes('the quick brown fox jumps over the lazy dog');
    await sink.open([
      { index: 0, path: 'fox.txt', size: content.length },
      { index: 1, path: 'whole.txt', size: content.length },
    ]);
    // Ahead of the prefix first, then the gap before it, then the end.
    await sink.write(0, 20, content.slice(20, 30));
    await sink.write(0, 0, content.slice(0, 20));
    await sink.write(0, 30, content.slice(30));
    await sink.close(0);
    // In one write, as most small files arrive.
    await sink.write(1, 0, content);
    await sink.close(1);
    const expected = await xxhash128(content);
    expect(await sink.writtenXxh128(0)).toBe(expected);
    expect(await sink.writtenXxh128(1)).toBe(expected);
    expect(readFileSync(path.join(folder, 'whole.txt'), 'utf8')).toBe(
      'the quick brown fox jumps over the lazy dog',
    );
  });

  it("takes a resumed part file's earlier bytes from disk into its hash", async () => {
    const folder = newFolder();
    const targets = [{ index: 0, path: 'a.bin', size: 8 }];
    const first = new FolderSink(folder, 'unpack');
    await first.open(targets);
    await first.write(0, 0, bytes('abcd'));
    await first.dispose();

    const again = new FolderSink(folder, 'unpack');
    expect([...(await again.open(targets, undefined, new Set(), true)).resumable]).toEqual([0]);
    again.resumed(0, [[0, 4]]);
    await again.write(0, 4, bytes('efgh'));
    await again.close(0);
    expect(await again.writtenXxh128(0)).toBe(await xxhash128(bytes('abcdefgh')));

    // A part file changed between the runs hashes as what is on disk, not what was sent.
    const third = new FolderSink(folder, 'unpack');
    writeFileSync(path.join(folder, 'b.bin' + PART_SUFFIX), 'abXd');
    await third.open([{ index: 0, path: 'b.bin', size: 8 }], undefined, new Set(), true);
    third.resumed(0, [[0, 4]]);
    await third.write(0, 4, bytes('efgh'));
    await third.close(0);
    expect(await third.writtenXxh128(0)).toBe(await xxhash128(bytes('abXdefgh')));
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

  it('replaces no file it did not write, and writes nothing when one is in the way', async () => {
    const home = newFolder();
    writeFileSync(path.join(home, '.bashrc'), 'alias ls=ls');
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.ssh/authorized_keys'), 'ssh-ed25519 mine');
    const targets = [
      { index: 0, path: '.bashrc', size: 4 },
      { index: 1, path: '.ssh/authorized_keys', size: 4 },
      { index: 2, path: 'new/empty.txt', size: 0 },
    ];
    const refused = await new FolderSink(home, 'unpack').open(targets).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OccupiedFolderError);
    expect(refused).toMatchObject({
      fatal: true,
      files: ['.bashrc', '.ssh/authorized_keys'],
      message:
        'The folder already holds files this download did not write: ".bashrc", ".ssh/authorized_keys".',
    });
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('alias ls=ls');
    expect(readdirSync(home).sort()).toEqual(['.bashrc', '.ssh']);

    const overwriting = new FolderSink(home, 'unpack', { overwrite: true });
    expect((await overwriting.open(targets)).resumable.size).toBe(0);
    await overwriting.write(0, 0, bytes('new!'));
    await overwriting.close(0);
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('new!');
    expect(existsSync(path.join(home, 'new/empty.txt'))).toBe(true);
  });

  it('takes a file whose name differs only in case as one in the way', async () => {
    const home = newFolder();
    writeFileSync(path.join(home, '.bashrc'), 'alias ls=ls');
    const targets = [{ index: 0, path: '.BASHRC', size: 4 }];
    // Even a run that claimed its names owns only the names it claimed, as given.
    const refused = await new FolderSink(home, 'unpack')
      .open(targets, undefined, new Set([0]), true)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OccupiedFolderError);
    expect(refused).toMatchObject({ files: ['.BASHRC'] });
    expect(readdirSync(home)).toEqual(['.bashrc']);
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('alias ls=ls');
  });

  it('resumes no part file its ledger never claimed, and writes through no hard link', async () => {
    const folder = newFolder();
    const elsewhere = newFolder();
    const victim = path.join(elsewhere, 'authorized_keys');
    writeFileSync(victim, 'mine');
    linkSync(victim, path.join(folder, `keys${PART_SUFFIX}`));
    writeFileSync(path.join(elsewhere, 'profile'), 'mine too');
    linkSync(path.join(elsewhere, 'profile'), path.join(folder, 'empty.txt'));
    const targets = [
      { index: 0, path: 'keys', size: 8 },
      { index: 1, path: 'empty.txt', size: 0 },
    ];
    const refused = await new FolderSink(folder, 'unpack').open(targets).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OccupiedFolderError);
    expect(refused).toMatchObject({ files: [`keys${PART_SUFFIX}`, 'empty.txt'] });

    const sink = new FolderSink(folder, 'unpack', { overwrite: true });
    expect((await sink.open(targets)).resumable.size).toBe(0);
    await sink.write(0, 4, bytes('EVIL'));
    await sink.write(0, 0, bytes('evil'));
    await sink.close(0);
    expect(readFileSync(path.join(folder, 'keys'), 'utf8')).toBe('evilEVIL');
    expect(readFileSync(path.join(folder, 'empty.txt'), 'utf8')).toBe('');
    expect(readFileSync(victim, 'utf8')).toBe('mine');
    expect(readFileSync(path.join(elsewhere, 'profile'), 'utf8')).toBe('mine too');
  });

  it('never writes through a symbolic link already in the folder', async () => {
    const folder = newFolder();
    const elsewhere = newFolder();
    writeFileSync(path.join(elsewhere, 'authorized_keys'), 'mine');
    symlinkSync(elsewhere, path.join(folder, '.ssh'));
    symlinkSync(path.join(elsewhere, 'authorized_keys'), path.join(folder, 'keys.txt'));
    symlinkSync(path.join(elsewhere, 'planted'), path.join(folder, `part.txt${PART_SUFFIX}`));
    const targets = [
      { index: 0, path: '.ssh/authorized_keys', size: 4 },
      { index: 1, path: 'keys.txt', size: 4 },
      { index: 2, path: 'part.txt', size: 4 },
      { index: 3, path: 'fine.txt', size: 0 },
    ];
    // Not even with overwrite: a link is replaced by no one.
    const sink = new FolderSink(folder, 'unpack', { overwrite: true });
    const refused = await sink
      .open(targets, undefined, new Set([0, 1, 2]))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'DownloadSinkError',
      fatal: true,
      links: ['.ssh/authorized_keys', 'keys.txt', 'part.txt'],
    });
    expect((refused as Error).message).toContain('symbolic links, never written through');
    expect(readdirSync(elsewhere)).toEqual(['authorized_keys']);
    expect(readFileSync(path.join(elsewhere, 'authorized_keys'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(folder, 'fine.txt'))).toBe(false);
  });

  it('opens part files without following a link put there after it looked', async () => {
    const folder = newFolder();
    const elsewhere = newFolder();
    const sink = new FolderSink(folder, 'unpack');
    await sink.open([{ index: 0, path: 'a.bin', size: 8 }]);
    symlinkSync(path.join(elsewhere, 'caught'), path.join(folder, `a.bin${PART_SUFFIX}`));
    await expect(sink.write(0, 0, bytes('abcd'))).rejects.toMatchObject({ kind: 'occupied' });
    await expect(sink.write(0, 4, bytes('efgh'))).rejects.toMatchObject({ kind: 'occupied' });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('fails names that leave the folder on some system, and writes nothing outside it', async () => {
    const parent = newFolder();
    const folder = path.join(parent, 'received');
    const names = [
      '..\\..\\Start Menu\\Programs\\Startup\\run.bat',
      'C:\\evil.txt',
      'c:evil.txt',
      'CON',
      'aux.txt',
      'Lpt1.log',
      'trailing.',
      'trailing ',
      `kept${PART_SUFFIX}`,
    ];
    const sink = new FolderSink(folder, 'unpack');
    const { failed } = await sink.open([
      ...names.map((name, index) => ({ index, path: name, size: 0 })),
      { index: names.length, path: 'fine.txt', size: 0 },
    ]);
    expect([...failed.keys()]).toEqual(names.map((_, index) => index));
    for (const refusal of failed.values())
      expect(refusal).toMatchObject({ kind: 'name', fatal: false });
    expect(readdirSync(parent)).toEqual(['received']);
    expect(readdirSync(folder)).toEqual(['fine.txt']);
    // The .tar kept whole is named by the server too.
    const tar = new FolderSink(folder, 'tar');
    const refusedTar = await tar.open([{ index: 0, path: '..\\x.tar', size: 0 }]);
    expect(refusedTar.failed.get(0)).toMatchObject({ kind: 'name' });
  });
});
