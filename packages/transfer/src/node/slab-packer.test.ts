import { createHash } from 'node:crypto';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { xxhash128 } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSlabs, slabPartsByEntry } from '../core/upload/slabs';
import { defaultUploadLimits } from '../core/upload-limits';
import { fileSource } from './file-source';
import { NodeSlabPacker } from './slab-packer';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fr-slab-packer-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `count` files of different sizes (an empty one among them) and different bytes. */
async function smallFiles(count: number) {
  const sources = [];
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.alloc((i * 977) % 5000, i & 0xff);
    for (let b = 0; b < bytes.length; b += 7) bytes[b] = (b * 13 + i) & 0xff;
    const filePath = path.join(dir, `f${i}.bin`);
    await writeFile(filePath, bytes);
    await utimes(filePath, 1_700_000_000, 1_700_000_000);
    sources.push(await fileSource(filePath, `frames/f${i}.bin`));
  }
  return sources;
}

const sha256 = async (blob: Blob) =>
  createHash('sha256')
    .update(new Uint8Array(await blob.arrayBuffer()))
    .digest('hex');

describe('NodeSlabPacker', () => {
  it('packs a slab byte for byte as the joined Blob, and hashes each file as read alone', async () => {
    const sources = await smallFiles(40);
    const [slab] = planSlabs(sources, defaultUploadLimits);
    const { parts, entryParts } = slabPartsByEntry(slab!);
    const hashed = entryParts.filter((part): part is number => part !== null);

    const { body, hashes } = await new NodeSlabPacker().pack(parts, hashed);

    expect(body.size).toBe(slab!.size);
    expect(await sha256(body)).toBe(await sha256(new Blob(parts)));
    const expected = await Promise.all(
      hashed.map(async (part) =>
        xxhash128(new Uint8Array(await (parts[part] as Blob).arrayBuffer())),
      ),
    );
    expect(hashes).toEqual(expected);
  });

  it('fails the slab when a file changed after it was picked', async () => {
    const sources = await smallFiles(20);
    const [slab] = planSlabs(sources, defaultUploadLimits);
    const { parts, entryParts } = slabPartsByEntry(slab!);
    await writeFile(path.join(dir, 'f7.bin'), Buffer.alloc(((7 * 977) % 5000) + 1, 1));

    await expect(
      new NodeSlabPacker().pack(
        parts,
        entryParts.filter((part): part is number => part !== null),
      ),
    ).rejects.toMatchObject({ name: 'NotReadableError' });
  });
});
