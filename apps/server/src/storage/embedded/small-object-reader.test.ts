import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishObjectFile } from './object-file';
import { readSmallObject } from './small-object-reader';

// Small reads on the worker: the bytes asked for, whatever the header's length or how far into
// the object they lie, for many reads at once, and the same "absent" as opening the file.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'small-object-reader-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function stored(name: string, body: Buffer, metadata: Record<string, string> = {}) {
  const filePath = path.join(dir, name);
  await publishObjectFile(
    { tempDir: dir, filePath },
    { key: name, contentType: 'application/octet-stream', metadata },
    body,
    { maxBytes: 1 << 30 },
  );
  return filePath;
}

describe('readSmallObject', () => {
  it('reads a range with its header, however long the header', async () => {
    const body = randomBytes(5000);
    const plain = await stored('plain', body);
    // Metadata makes a header of several kilobytes: more than the read guesses.
    const long = await stored('long-header', body, { note: 'x'.repeat(6000) });
    for (const filePath of [plain, long]) {
      const slice = await readSmallObject(filePath, 100, 2000);
      expect(slice!.record.size).toBe(5000);
      expect(slice!.data!.equals(body.subarray(100, 2100))).toBe(true);
    }
    // A range running past the end gives the bytes there are.
    expect((await readSmallObject(plain, 4990, 100))!.data!.equals(body.subarray(4990))).toBe(true);
  });

  it('reads a range far into a large object (a file packed late in a slab)', async () => {
    const body = randomBytes(700 * 1024);
    const filePath = await stored('slab', body);
    const slice = await readSmallObject(filePath, 600 * 1024, 9000);
    expect(slice!.data!.equals(body.subarray(600 * 1024, 600 * 1024 + 9000))).toBe(true);
  });

  it('answers many reads asked at once, each with its own bytes', async () => {
    const bodies = Array.from({ length: 150 }, (_, i) => randomBytes(100 + i * 37));
    const paths = await Promise.all(bodies.map((body, i) => stored(`many-${i}`, body)));
    const slices = await Promise.all(paths.map((p, i) => readSmallObject(p, 0, bodies[i]!.length)));
    slices.forEach((slice, i) => expect(slice!.data!.equals(bodies[i]!)).toBe(true));
  });

  it('answers null for no such file, and fails for a file that is no object', async () => {
    expect(await readSmallObject(path.join(dir, 'absent'), 0, 10)).toBeNull();
    expect(await readSmallObject(path.join(dir, 'absent', 'deeper'), 0, 10)).toBeNull();
    const stray = path.join(dir, 'stray');
    await writeFile(stray, 'not an object file at all');
    await expect(readSmallObject(stray, 0, 10)).rejects.toThrow('not an object file');
  });
});
