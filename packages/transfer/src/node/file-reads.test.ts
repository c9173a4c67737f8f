import { appendFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobChunks, READ_BYTES } from './file-reads';
import { fileSource } from './file-source';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fr-reads-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A file whose every byte differs from its neighbours', so a misplaced read shows. */
async function patternedFile(name: string, size: number) {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  const filePath = path.join(dir, name);
  await writeFile(filePath, bytes);
  await utimes(filePath, 1_700_000_000, 1_700_000_000);
  return { filePath, bytes };
}

async function readAll(chunks: AsyncIterable<Uint8Array>) {
  const read: Uint8Array[] = [];
  for await (const chunk of chunks) read.push(chunk);
  return read;
}

describe('blobChunks', () => {
  it('reads a slice of a file as its own bytes, in large reads', async () => {
    const { filePath, bytes } = await patternedFile('clip.mov', 2 * READ_BYTES + 1000);
    const source = await fileSource(filePath, 'clip.mov');
    const chunks = await readAll(blobChunks(source.slice(333, 2 * READ_BYTES + 555)));
    expect(chunks.map((c) => c.byteLength)).toEqual([READ_BYTES, READ_BYTES, 222]);
    expect(Buffer.concat(chunks).equals(bytes.subarray(333, 2 * READ_BYTES + 555))).toBe(true);
    expect(await readAll(blobChunks(source.slice(10, 10)))).toEqual([]);
  });

  it('reads a Blob joined from several parts through its own stream', async () => {
    const { filePath, bytes } = await patternedFile('frame.dpx', 5000);
    const source = await fileSource(filePath, 'frame.dpx');
    const slab = new Blob(['header', source.slice(100, 4100), 'tail']);
    const read = Buffer.concat(await readAll(blobChunks(slab)));
    expect(
      read.equals(
        Buffer.concat([Buffer.from('header'), bytes.subarray(100, 4100), Buffer.from('tail')]),
      ),
    ).toBe(true);
  });

  it('fails on a file changed after it was picked, before its last bytes are given', async () => {
    const { filePath } = await patternedFile('edited.mov', 3 * READ_BYTES);
    const source = await fileSource(filePath, 'edited.mov');
    await utimes(filePath, 1_700_000_500, 1_700_000_500);
    await expect(readAll(blobChunks(source.slice(0, 1000)))).rejects.toMatchObject({
      name: 'NotReadableError',
    });

    const { filePath: growing } = await patternedFile('growing.mov', 3 * READ_BYTES);
    const grown = await fileSource(growing, 'growing.mov');
    const given: number[] = [];
    const reading = (async () => {
      for await (const chunk of blobChunks(grown.slice(0, grown.size))) {
        given.push(chunk.byteLength);
        // Written to while it is read: what was read so far is of the file as picked, what
        // follows is not, so the whole must not arrive.
        if (given.length === 1) await appendFile(growing, 'more');
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'NotReadableError' });
    expect(given.reduce((a, b) => a + b, 0)).toBeLessThan(grown.size);
  });
});
