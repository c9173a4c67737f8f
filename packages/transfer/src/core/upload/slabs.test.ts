import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ByteSource } from '../ports';
import { defaultUploadLimits, type UploadLimits } from '../upload-limits';
import type { Slab } from './plan';
import { planSlabs, slabParts, slabPartsByEntry } from './slabs';

const GNU_TAR = '/usr/bin/tar';
// libarchive's reader (the tar of macOS, Windows and FreeBSD); .ci/run installs it.
const BSDTAR = '/usr/bin/bsdtar';
const MTIME_MS = 1_700_000_000_000;

const scratch = mkdtempSync(join(tmpdir(), 'slabs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let written = 0;

/** A picked file held in memory; slicing gives Blobs, as a `File` does in the browser. */
function memorySource(
  path: string,
  bytes: Uint8Array<ArrayBuffer>,
  lastModified = MTIME_MS,
): ByteSource {
  return {
    path,
    size: bytes.length,
    lastModified,
    slice: (start, end) => new Blob([bytes.subarray(start, end)]),
  };
}

function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed * 7 + (i >> 9)) & 0xff);
}

/** The slab object as storage receives it: its parts joined into one Blob, as the runner does. */
async function slabBytes(slab: Slab): Promise<Buffer> {
  return Buffer.from(await new Blob(slabParts(slab)).arrayBuffer());
}

/** Names and sizes a tar program lists for an archive (`-tv`), in archive order. */
function listing(tar: string, file: string): { name: string; size: number }[] {
  const args = tar === GNU_TAR ? ['-tvf', file, '--quoting-style=literal'] : ['-tvf', file];
  const run = spawnSync(tar, args, { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  expect(run.stderr.toString()).toBe('');
  expect(run.status).toBe(0);
  // GNU: "-rw-r--r-- 0/0  42 2023-11-14 22:13 name"; bsdtar: "-rw-r--r--  0 0  0  42 Nov 14  2023 name".
  const line =
    tar === GNU_TAR
      ? /^-\S+ \S+\s+(\d+) \d{4}-\d\d-\d\d \d\d:\d\d (.*)$/
      : /^-\S+\s+\d+\s+\S+\s+\S+\s+(\d+) \w{3}\s+\d+\s+[\d:]+ (.*)$/;
  return run.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => {
      const match = line.exec(text);
      expect(match, text).not.toBeNull();
      return { name: match![2]!, size: Number(match![1]) };
    });
}

const slabLimits = (maxSlabBytes: number, maxSlabFiles: number): UploadLimits => ({
  ...defaultUploadLimits,
  maxSlabBytes,
  maxSlabFiles,
});

const names = [
  'readme.txt',
  'empty.txt',
  'Präsentation über/Entwurf.pdf',
  '資料/会議の議事録.txt',
  `${'quarterly-reports/'.repeat(6)}summary.csv`,
  `${'archive-2024/'.repeat(20)}final.txt`,
  'with spaces/it\'s "quoted" & #1.txt',
  'blocks/one.bin',
];

describe('planSlabs', () => {
  it('writes tars GNU tar and bsdtar list with the files names and sizes, bytes at each range', async () => {
    const sizes = [42, 0, 70_001, 2048, 1000, 1, 5, 512];
    const files = names.map((name, i) => ({ name, bytes: bytesOf(sizes[i]!, i) }));
    const sources = files.map((f) => memorySource(f.name, f.bytes));
    const [slab, ...rest] = planSlabs(sources, defaultUploadLimits);
    expect(rest).toEqual([]);

    const bytes = await slabBytes(slab!);
    expect(bytes.length).toBe(slab!.size);
    const file = join(scratch, `${written++}.tar`);
    writeFileSync(file, bytes);
    for (const tar of [GNU_TAR, BSDTAR]) {
      expect(listing(tar, file)).toEqual(
        files.map((f) => ({ name: f.name, size: f.bytes.length })),
      );
    }
    slab!.entries.forEach((entry, i) => {
      expect(entry.source).toBe(sources[i]);
      expect(entry.end_byte - entry.start_byte).toBe(files[i]!.bytes.length);
      expect(bytes.subarray(entry.start_byte, entry.end_byte).equals(files[i]!.bytes)).toBe(true);
    });
  });

  it('holds for any files and limits: every file once, in order, at its range, in a valid tar', async () => {
    const file = fc.record({
      name: fc.constantFrom(...names, 'a.bin', 'z/ü.bin'),
      size: fc.integer({ min: 0, max: 3000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(file, { selector: (f) => f.name, minLength: 1, maxLength: 9 }),
        fc.integer({ min: 2048, max: 12_000 }),
        fc.integer({ min: 1, max: 5 }),
        async (picked, maxSlabBytes, maxSlabFiles) => {
          const files = picked.map((f, i) => ({ name: f.name, bytes: bytesOf(f.size, i) }));
          const sources = files.map((f) => memorySource(f.name, f.bytes));
          const slabs = planSlabs(sources, slabLimits(maxSlabBytes, maxSlabFiles));

          expect(slabs.flatMap((s) => s.entries.map((e) => e.source))).toEqual(sources);
          expect(new Set(slabs.map((s) => s.name)).size).toBe(slabs.length);
          for (const slab of slabs) {
            expect(slab.entries.length).toBeLessThanOrEqual(maxSlabFiles);
            // Only a file too big for any slab makes one larger than the cap, alone.
            if (slab.entries.length > 1) expect(slab.size).toBeLessThanOrEqual(maxSlabBytes);
            const bytes = await slabBytes(slab);
            expect(bytes.length).toBe(slab.size);
            const tarFile = join(scratch, `${written++}.tar`);
            writeFileSync(tarFile, bytes);
            const expected = slab.entries.map((e) => ({
              name: e.source.path,
              size: e.source.size,
            }));
            expect(listing(GNU_TAR, tarFile)).toEqual(expected);
            expect(listing(BSDTAR, tarFile)).toEqual(expected);
            for (const entry of slab.entries) {
              const original = files[sources.indexOf(entry.source)]!.bytes;
              expect(bytes.subarray(entry.start_byte, entry.end_byte).equals(original)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('names the part that holds each file, and none for an empty file', async () => {
    const sizes = [42, 0, 70_001, 2048, 1000, 1, 5, 512];
    const files = names.map((name, i) => ({ name, bytes: bytesOf(sizes[i]!, i) }));
    const [slab] = planSlabs(
      files.map((f) => memorySource(f.name, f.bytes)),
      defaultUploadLimits,
    );
    const { parts, entryParts } = slabPartsByEntry(slab!);
    expect(parts).toEqual(slabParts(slab!));
    expect(entryParts).toHaveLength(files.length);
    for (const [i, part] of entryParts.entries()) {
      if (files[i]!.bytes.length === 0) {
        expect(part).toBeNull();
        continue;
      }
      const bytes = Buffer.from(await (parts[part!] as Blob).arrayBuffer());
      expect(bytes.equals(files[i]!.bytes), files[i]!.name).toBe(true);
    }
  });

  it('names the same files the same slab again, and other files another', () => {
    const sources = names.map((name, i) => memorySource(name, bytesOf(i * 10, i)));
    const again = names.map((name, i) => memorySource(name, bytesOf(i * 10, i)));
    const first = planSlabs(sources, defaultUploadLimits)[0]!;
    expect(planSlabs(again, defaultUploadLimits)[0]!.name).toBe(first.name);
    expect(first.name).toMatch(/^slabs\/[A-Za-z0-9._-]+\.tar$/);
    const touched = [...again.slice(1), memorySource(names[0]!, bytesOf(0, 0), MTIME_MS + 1000)];
    expect(planSlabs(touched, defaultUploadLimits)[0]!.name).not.toBe(first.name);
  });

  it('refuses to send a slab whose file changed size since planning', () => {
    const source = { ...memorySource('a.txt', bytesOf(10, 1)) };
    const [slab] = planSlabs([source], defaultUploadLimits);
    const changed = {
      ...slab!,
      entries: [{ ...slab!.entries[0]!, source: { ...source, size: 11 } }],
    };
    expect(() => slabParts(changed)).toThrow(/plan the upload again/);
  });
});
