import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  entryHeader,
  layoutTar,
  piecesForRange,
  type TarEntrySource,
  type TarLayout,
  type TarPiece,
} from './tar-layout';

const GNU_TAR = '/usr/bin/tar';
// libarchive's reader (the tar of macOS, Windows and FreeBSD); .ci/run installs it.
const BSDTAR = '/usr/bin/bsdtar';
const MTIME = 1_700_000_000;
const EIGHT_GIB = 8 * 1024 ** 3;

const padded = (size: number) => Math.ceil(size / 512) * 512;

const scratch = mkdtempSync(join(tmpdir(), 'tar-layout-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let scratchCount = 0;
const scratchPath = (name: string) => join(scratch, `${scratchCount++}-${name}`);

/** Stand-in for a stored object's bytes: a pure function of (entry, position). */
function content(entry: number, offset: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    const at = offset + i;
    bytes[i] = (entry * 131 + at * 7 + Math.floor(at / 251)) & 0xff;
  }
  return bytes;
}

function assemble(pieces: readonly TarPiece[]): Buffer {
  return Buffer.concat(
    pieces.map((piece) =>
      piece.kind === 'bytes' ? piece.data : content(piece.entry, piece.offset, piece.length),
    ),
  );
}

const whole = (layout: TarLayout) => piecesForRange(layout, { offset: 0, length: layout.size });
const wholeTar = (layout: TarLayout) => assemble(whole(layout));

/** The tar built the obvious way, entry after entry from entry `from`, to check pieces against. */
function referenceTar(layout: TarLayout, from = 0): Buffer {
  const parts = layout.entries.slice(from).flatMap((entry, i) => {
    const { size } = entry.source;
    const padding = Buffer.alloc(padded(size) - size);
    return [entryHeader(layout, from + i), content(from + i, 0, size), padding];
  });
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

const field = (block: Uint8Array, at: number, width: number) =>
  Buffer.from(block.subarray(at, at + width))
    .toString('utf8')
    .replace(/\0.*$/s, '');

/** Reads one USTAR header block the way a strict reader would, checksum included. */
function readUstar(block: Uint8Array) {
  const summed = block.reduce((sum, byte, i) => sum + (i >= 148 && i < 156 ? 0x20 : byte), 0);
  expect(parseInt(field(block, 148, 8), 8)).toBe(summed);
  expect(field(block, 257, 6)).toBe('ustar');
  expect(field(block, 263, 2)).toBe('00');
  return {
    name: field(block, 0, 100),
    mode: field(block, 100, 8),
    size: parseInt(field(block, 124, 12), 8),
    mtime: parseInt(field(block, 136, 12), 8),
    typeflag: field(block, 156, 1),
    uname: field(block, 265, 32),
  };
}

/** Parses PAX records, insisting that every length prefix is the record's exact byte length. */
function readPax(body: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const length = Number(body.subarray(at, space).toString('ascii'));
    const record = body.subarray(space + 1, at + length).toString('utf8');
    expect(record.endsWith('\n')).toBe(true);
    const [key, ...value] = record.slice(0, -1).split('=');
    records[key!] = value.join('=');
    at += length;
  }
  return records;
}

/** Reads one entry's header blocks (PAX, if any, then USTAR) as a PAX-aware reader would. */
function readEntryHeader(bytes: Buffer) {
  let header = readUstar(bytes.subarray(0, 512));
  let pax: Record<string, string> = {};
  let headerLength = 512;
  if (header.typeflag === 'x') {
    pax = readPax(bytes.subarray(512, 512 + header.size));
    headerLength += padded(header.size);
    header = readUstar(bytes.subarray(headerLength, headerLength + 512));
    headerLength += 512;
  }
  expect(header).toMatchObject({ typeflag: '0', mode: '0000644', uname: '' });
  const size = pax.size === undefined ? header.size : Number(pax.size);
  return { path: pax.path ?? header.name, size, mtime: header.mtime, headerLength };
}

/** Reads a whole tar back, the independent reader for the properties. */
function readTar(tar: Buffer): { path: string; size: number; mtime: number; data: Buffer }[] {
  const files = [];
  let at = 0;
  while (tar.subarray(at, at + 512).some((byte) => byte !== 0)) {
    const { headerLength, ...entry } = readEntryHeader(tar.subarray(at));
    at += headerLength;
    files.push({ ...entry, data: tar.subarray(at, at + entry.size) });
    at += padded(entry.size);
  }
  expect(tar.length - at).toBe(1024);
  expect(tar.subarray(at).every((byte) => byte === 0)).toBe(true);
  return files;
}

function runTar(tar: string, args: string[], locale = 'C.UTF-8', input?: Buffer) {
  const run = spawnSync(tar, args, {
    input,
    env: { ...process.env, LC_ALL: locale },
    maxBuffer: 1 << 28,
  });
  expect(run.stderr.toString()).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}
const gnuTar = (args: string[], locale?: string, input?: Buffer) =>
  runTar(GNU_TAR, args, locale, input);

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory()
      ? filesUnder(join(dir, item.name), `${prefix}${item.name}/`)
      : [`${prefix}${item.name}`],
  );
}

const longAscii = `${'quarterly-reports/'.repeat(6)}summary.csv`; // 119 bytes
const veryLongAscii = `${'archive-2024/'.repeat(20)}final.txt`; // 269 bytes
const veryLongUnicode = `${'Übersicht-ÄÖÜ-äöü-ß/'.repeat(10)}資料/会議の議事録.txt`; // 309 bytes
const package_: TarEntrySource[] = [
  { path: 'readme.txt', size: 42, mtime: MTIME },
  { path: 'empty.txt', size: 0, mtime: MTIME + 1 },
  { path: 'blocks/one-short.bin', size: 511, mtime: MTIME },
  { path: 'blocks/one.bin', size: 512, mtime: MTIME },
  { path: 'blocks/one-long.bin', size: 513, mtime: MTIME },
  { path: 'blocks/many.bin', size: 70_001, mtime: MTIME },
  { path: 'deep/a/b/c/d/e/f/g/nested.txt', size: 10, mtime: MTIME },
  { path: `${'n'.repeat(96)}.txt`, size: 3, mtime: MTIME }, // exactly 100 bytes: no PAX
  { path: `${'n'.repeat(97)}.txt`, size: 3, mtime: MTIME }, // 101 bytes
  { path: longAscii, size: 1000, mtime: MTIME },
  { path: veryLongAscii, size: 1, mtime: MTIME },
  { path: 'Präsentation/über.txt', size: 77, mtime: MTIME },
  { path: '資料/会議の議事録.txt', size: 2048, mtime: MTIME },
  { path: veryLongUnicode, size: 600, mtime: MTIME },
  { path: 'with spaces/it\'s "quoted" & #1.txt', size: 5, mtime: MTIME },
  { path: 'empty-too.txt', size: 0, mtime: MTIME },
];

describe('layoutTar', () => {
  // bsdtar gets a UTF-8 locale: in C it extracts the right names but exits 1, as it does for
  // GNU tar's own PAX archives, because it cannot convert them to the locale's charset.
  it.each([
    [GNU_TAR, 'C'],
    [GNU_TAR, 'C.UTF-8'],
    [BSDTAR, 'C.UTF-8'],
  ])('extracts with %s (LC_ALL=%s) to the same paths, bytes and dates', (tar, locale) => {
    const layout = layoutTar(package_);
    const file = scratchPath('package.tar');
    writeFileSync(file, wholeTar(layout));
    const dir = mkdtempSync(join(scratch, 'x-'));
    runTar(tar, ['-xf', file, '-C', dir], locale);

    expect(filesUnder(dir).sort()).toEqual(package_.map((source) => source.path).sort());
    package_.forEach((source, i) => {
      const extracted = join(dir, source.path);
      expect(readFileSync(extracted).equals(content(i, 0, source.size))).toBe(true);
      expect(statSync(extracted).mtimeMs).toBe(source.mtime * 1000);
    });
  });

  it('lists with GNU tar in package order', () => {
    const file = scratchPath('package.tar');
    writeFileSync(file, wholeTar(layoutTar(package_)));
    const listing = gnuTar(['-tf', file, '--quoting-style=literal']).toString('utf8');
    expect(listing.split('\n').slice(0, -1)).toEqual(package_.map((source) => source.path));
  });

  it('adds a PAX header only for paths USTAR cannot name exactly', () => {
    const layout = layoutTar(package_);
    const headerLength = (path: string) =>
      layout.entries.find((entry) => entry.source.path === path)!.headerLength;
    expect(headerLength('readme.txt')).toBe(512);
    expect(headerLength(`${'n'.repeat(96)}.txt`)).toBe(512);
    // An 'x' header block, one block of records, then the USTAR block.
    expect(headerLength(`${'n'.repeat(97)}.txt`)).toBe(1536);
    expect(headerLength('Präsentation/über.txt')).toBe(1536);

    const header = Buffer.from(entryHeader(layout, 11));
    const pax = readUstar(header.subarray(0, 512));
    expect(pax).toMatchObject({ name: 'PaxHeaders/_ber.txt', typeflag: 'x', size: 32 });
    expect(header.subarray(512, 512 + 32).toString('utf8')).toBe('32 path=Präsentation/über.txt\n');
    // Readers that ignore PAX still get a harmless ASCII name and the real size.
    expect(readUstar(header.subarray(1024))).toMatchObject({
      name: 'Pr_sentation/_ber.txt',
      size: 77,
      typeflag: '0',
    });
  });

  it('gives identical bytes for the same list, and the bytes never change', () => {
    const first = wholeTar(layoutTar(package_));
    const second = wholeTar(layoutTar(package_.map((source) => ({ ...source }))));
    expect(first.equals(second)).toBe(true);
    // A download resumed with Range after a deploy splices old and new bytes: changing this
    // hash changes the product's download format and needs a decision record.
    expect(createHash('sha256').update(first).digest('hex')).toBe(
      'e76d1302c4fc7afee3f7b281ef11356dc03767419b65e520479bf7cba0e86b40',
    );
  });

  it('lays out an empty package as the two end-of-archive blocks', () => {
    const layout = layoutTar([]);
    expect(layout.size).toBe(1024);
    const tar = wholeTar(layout);
    expect(tar.equals(Buffer.alloc(1024))).toBe(true);
    expect(gnuTar(['-tf', '-'], 'C.UTF-8', tar).toString()).toBe('');
  });

  it.each([
    [{ path: 'a.txt', size: -1, mtime: 0 }],
    [{ path: 'a.txt', size: 1.5, mtime: 0 }],
    [{ path: 'a.txt', size: Number.NaN, mtime: 0 }],
    [{ path: 'a.txt', size: 2 ** 53, mtime: 0 }],
    [{ path: 'a.txt', size: 1, mtime: 0.5 }],
    [{ path: '', size: 1, mtime: 0 }],
    [{ path: '/etc/passwd', size: 1, mtime: 0 }],
    [{ path: '../escape.txt', size: 1, mtime: 0 }],
    [{ path: 'a/../../escape.txt', size: 1, mtime: 0 }],
    [{ path: 'a/..', size: 1, mtime: 0 }],
    [{ path: './a.txt', size: 1, mtime: 0 }],
    [{ path: 'a//b.txt', size: 1, mtime: 0 }],
    [{ path: 'folder/', size: 1, mtime: 0 }],
    [{ path: 'nul\0.txt', size: 1, mtime: 0 }],
    [{ path: 'lone-\uD800.txt', size: 1, mtime: 0 }],
  ])('rejects %j', (source) => {
    expect(() => layoutTar([{ path: 'fine.txt', size: 1, mtime: 0 }, source])).toThrow(RangeError);
  });

  it('rejects a package whose tar would pass 2^53 bytes', () => {
    const big = { path: 'big.bin', size: Number.MAX_SAFE_INTEGER - 600, mtime: 0 };
    expect(() => layoutTar([big])).toThrow(RangeError);
  });

  it('clamps dates a tar header cannot hold', () => {
    const layout = layoutTar([
      { path: 'old.txt', size: 0, mtime: -86_400 },
      { path: 'far.txt', size: 0, mtime: 2 ** 40 },
    ]);
    expect(readUstar(entryHeader(layout, 0)).mtime).toBe(0);
    expect(readUstar(entryHeader(layout, 1)).mtime).toBe(8 ** 11 - 1);
  });
});

describe('a file of 8 GiB or more', () => {
  const huge = EIGHT_GIB + 1; // one past what 11 octal digits hold, and not a 512 multiple
  const sources = [
    { path: 'before.txt', size: 700, mtime: MTIME },
    { path: 'Videos/raw.mov', size: huge, mtime: MTIME },
    { path: 'after.txt', size: 513, mtime: MTIME },
  ];
  const layout = layoutTar(sources);

  it('carries its size in a PAX record and shifts later entries by its padded size', () => {
    const [before, video, after] = layout.entries;
    expect(video!.headerOffset).toBe(before!.dataOffset + 1024);
    expect(video!.headerLength).toBe(3 * 512);
    const header = Buffer.from(entryHeader(layout, 1));
    expect(readUstar(header.subarray(0, 512))).toMatchObject({ typeflag: 'x', size: 19 });
    expect(header.subarray(512, 531).toString('ascii')).toBe('19 size=8589934593\n');
    expect(readUstar(header.subarray(1024))).toMatchObject({ name: 'Videos/raw.mov', size: 0 });
    expect(after!.headerOffset).toBe(video!.dataOffset + huge + 511);
    expect(layout.size).toBe(after!.dataOffset + 1024 + 1024);

    const seam = piecesForRange(layout, { offset: video!.dataOffset + huge - 2, length: 600 });
    expect(seam[0]).toEqual({ kind: 'file', entry: 1, offset: huge - 2, length: 2 });
    expect(seam).toHaveLength(2);
    // 2 bytes of video, its 511 bytes of padding, then the start of after.txt's header.
    const tail = Buffer.from((seam[1] as { data: Uint8Array }).data);
    expect(
      tail.equals(Buffer.concat([Buffer.alloc(511), entryHeader(layout, 2).subarray(0, 87)])),
    ).toBe(true);
  });

  it('switches to a PAX size exactly at 8 GiB', () => {
    const edge = layoutTar([
      { path: 'below.bin', size: EIGHT_GIB - 1, mtime: MTIME },
      { path: 'at.bin', size: EIGHT_GIB, mtime: MTIME },
    ]);
    const [below, at] = edge.entries;
    expect(below!.headerLength).toBe(512);
    expect(readUstar(entryHeader(edge, 0)).size).toBe(EIGHT_GIB - 1);
    expect(at!.headerLength).toBe(1536);
    expect(at!.headerOffset).toBe(512 + EIGHT_GIB);
    expect(readEntryHeader(Buffer.from(entryHeader(edge, 1))).size).toBe(EIGHT_GIB);
  });

  it('puts a PAX path and size together for a long-named huge file', () => {
    const path = `${'Präsentation/'.repeat(12)}groß.mov`;
    const one = layoutTar([{ path, size: 2 ** 40, mtime: MTIME }]);
    const header = Buffer.from(entryHeader(one, 0));
    const paxSize = readUstar(header.subarray(0, 512)).size;
    expect(readPax(header.subarray(512, 512 + paxSize))).toEqual({ path, size: String(2 ** 40) });
    expect(one.size).toBe(header.length + 2 ** 40 + 1024);
  });

  it('is listed by GNU tar, which finds the next file where the layout put it', () => {
    // A sparse file: the 8 GiB of the video stay a hole, only headers and small files are written.
    const file = scratchPath('huge.tar');
    const fd = openSync(file, 'w');
    let at = 0;
    for (const piece of whole(layout)) {
      const length = piece.kind === 'bytes' ? piece.data.length : piece.length;
      if (piece.kind === 'bytes') writeSync(fd, piece.data, 0, length, at);
      else if (piece.entry !== 1)
        writeSync(fd, content(piece.entry, piece.offset, length), 0, length, at);
      at += length;
    }
    closeSync(fd);
    expect(statSync(file).size).toBe(layout.size);

    const listing = gnuTar(['-tvf', file]).toString();
    expect(listing).toMatch(/ 8589934593 .* Videos\/raw\.mov\n/);
    const dir = mkdtempSync(join(scratch, 'x-'));
    gnuTar(['-xf', file, '-C', dir, 'after.txt']);
    expect(readFileSync(join(dir, 'after.txt')).equals(content(2, 0, 513))).toBe(true);
  });
});

describe('piecesForRange', () => {
  const segment = fc
    .string({
      unit: fc.constantFrom('a', 'B', '7', '-', '_', ' ', '.', 'ä', 'ß', '日', '本', 'é', '𝄞'),
      minLength: 1,
      maxLength: 40,
    })
    .filter((name) => name !== '.' && name !== '..');
  const source = fc.record({
    path: fc.array(segment, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('/')),
    size: fc.oneof(fc.constantFrom(0, 1, 511, 512, 513, 1024, 1025), fc.nat(3000)),
    mtime: fc.nat(2 ** 33),
  });
  const ranges = fc.array(fc.tuple(fc.nat(), fc.oneof(fc.nat(2000), fc.nat())), {
    minLength: 1,
    maxLength: 20,
  });

  it('returns exactly the bytes of the same slice of the whole tar', () => {
    fc.assert(
      fc.property(fc.array(source, { maxLength: 12 }), ranges, (sources, draws) => {
        const layout = layoutTar(sources);
        const reference = referenceTar(layout);
        expect(layout.size).toBe(reference.length);
        expect(wholeTar(layout).equals(reference)).toBe(true);
        for (const [a, b] of draws) {
          const offset = a % (layout.size + 1);
          const length = b % (layout.size - offset + 1);
          const pieces = piecesForRange(layout, { offset, length });
          const lengths = pieces.map((p) => (p.kind === 'bytes' ? p.data.length : p.length));
          expect(lengths.reduce((sum, n) => sum + n, 0)).toBe(length);
          expect(lengths.every((n) => n > 0)).toBe(true);
          pieces.forEach((piece, i) => {
            if (piece.kind === 'bytes') expect(pieces[i + 1]?.kind).not.toBe('bytes');
            else
              expect(piece.offset + piece.length).toBeLessThanOrEqual(sources[piece.entry]!.size);
          });
          expect(assemble(pieces).equals(reference.subarray(offset, offset + length))).toBe(true);
        }
        const readBack = readTar(reference);
        expect(readBack.map(({ path, size, mtime }) => ({ path, size, mtime }))).toEqual(
          sources.map(({ path, size, mtime }) => ({
            path,
            size,
            mtime: Math.min(mtime, 8 ** 11 - 1),
          })),
        );
        readBack.forEach((file, i) =>
          expect(file.data.equals(content(i, 0, file.size))).toBe(true),
        );
      }),
    );
  });

  it('gives GNU tar the names and bytes of random packages', () => {
    fc.assert(
      fc.property(fc.array(source, { minLength: 1, maxLength: 8 }), (sources) => {
        const tar = wholeTar(layoutTar(sources));
        const names = gnuTar(['-tf', '-', '--quoting-style=literal'], 'C.UTF-8', tar);
        expect(names.toString('utf8')).toBe(sources.map((s) => `${s.path}\n`).join(''));
        const bytes = gnuTar(['-xOf', '-'], 'C.UTF-8', tar);
        expect(bytes.equals(Buffer.concat(sources.map((s, i) => content(i, 0, s.size))))).toBe(
          true,
        );
      }),
      { numRuns: 25 },
    );
  });

  it('places files of any size, past 8 GiB too, by arithmetic alone', () => {
    const anySize = fc.record({
      path: source.map((s) => s.path),
      size: fc.oneof(fc.nat(3000), fc.integer({ min: EIGHT_GIB - 2, max: 2 ** 45 })),
      mtime: fc.constant(MTIME),
    });
    fc.assert(
      fc.property(fc.array(anySize, { maxLength: 10 }), ranges, (sources, draws) => {
        const layout = layoutTar(sources);
        let next = 0;
        layout.entries.forEach((entry, i) => {
          expect(entry.headerOffset).toBe(next);
          expect(entry.dataOffset).toBe(entry.headerOffset + entry.headerLength);
          next = entry.dataOffset + padded(entry.source.size);
          const header = Buffer.from(entryHeader(layout, i));
          expect(header.length).toBe(entry.headerLength);
          expect(readEntryHeader(header)).toEqual({
            path: sources[i]!.path,
            size: sources[i]!.size,
            mtime: MTIME,
            headerLength: entry.headerLength,
          });
        });
        expect(layout.size).toBe(next + 1024);
        for (const [a, b] of draws) {
          const offset = a % (layout.size + 1);
          const length = b % (layout.size - offset + 1);
          let at = offset;
          for (const piece of piecesForRange(layout, { offset, length })) {
            if (piece.kind === 'file') {
              expect(at).toBe(layout.entries[piece.entry]!.dataOffset + piece.offset);
              at += piece.length;
            } else {
              at += piece.data.length;
            }
          }
          expect(at).toBe(offset + length);
        }
      }),
    );
  });

  it('finds a range at the end of a 50,000-file layout by looking at a few entries', () => {
    const sources = Array.from({ length: 50_000 }, (_, i) => ({
      path: i % 7 === 0 ? `Ordner-${i % 97}/${'Bericht-über-'.repeat(9)}${i}.pdf` : `f/${i}.bin`,
      size: (i * 37) % 5000,
      mtime: MTIME + i,
    }));
    const layout = layoutTar(sources);
    const last = layout.entries.at(-1)!;
    const before = layout.entries.at(-2)!;
    expect(layout.size).toBe(last.dataOffset + Math.ceil(last.source.size / 512) * 512 + 1024);

    // Counting entry reads checks the binary search without a timed test.
    let reads = 0;
    const entries = new Proxy(layout.entries, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const offset = before.dataOffset + 100;
    const pieces = piecesForRange({ ...layout, entries }, { offset, length: layout.size - offset });
    expect(reads).toBeLessThan(50);
    expect(pieces[0]).toMatchObject({ kind: 'file', entry: 49_998, offset: 100 });
    const expected = referenceTar(layout, 49_998).subarray(offset - before.headerOffset);
    expect(assemble(pieces).equals(expected)).toBe(true);
  });

  it('returns nothing for an empty range and rejects ranges outside the tar', () => {
    const layout = layoutTar(package_);
    expect(piecesForRange(layout, { offset: layout.size, length: 0 })).toEqual([]);
    expect(() => piecesForRange(layout, { offset: layout.size, length: 1 })).toThrow(RangeError);
    expect(() => piecesForRange(layout, { offset: -1, length: 1 })).toThrow(RangeError);
    expect(() => piecesForRange(layout, { offset: 0, length: 0.5 })).toThrow(RangeError);
  });
});
