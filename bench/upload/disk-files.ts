import { randomFillSync } from 'node:crypto';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';

const CHUNK = 8 * 1024 * 1024;

/** A file on disk as the baselines name it: where it is, its object name, its size. */
export interface DiskFile {
  file: string;
  name: string;
  size: number;
}

/** The bench's files on disk: the large one, and the small ones under `framesDir`. */
export interface DiskFiles {
  big: DiskFile;
  framesDir: string;
  frames: DiskFile[];
}

/**
 * The bench's files, written before anything is measured, shaped as the page's: one large
 * file (one random chunk written over and over) and `count` random files in subfolders of
 * `perFolder`, under `frames/`.
 */
export async function writeDiskFiles(
  dir: string,
  sizes: { bigBytes: number; count: number; size: number; perFolder: number },
): Promise<DiskFiles> {
  const big = path.join(dir, 'A001.mov');
  await mkdir(dir, { recursive: true });
  const chunk = randomFillSync(Buffer.alloc(Math.min(CHUNK, sizes.bigBytes)));
  const handle = await open(big, 'w');
  for (let at = 0; at < sizes.bigBytes; at += chunk.length) {
    await handle.write(chunk, 0, Math.min(chunk.length, sizes.bigBytes - at), at);
  }
  await handle.close();
  const frames: DiskFile[] = [];
  for (let i = 0; i < sizes.count; i++) {
    const name = `frames/d${String(Math.floor(i / sizes.perFolder)).padStart(3, '0')}/f${String(i).padStart(5, '0')}.bin`;
    const file = path.join(dir, name);
    if (i % sizes.perFolder === 0) await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, randomFillSync(Buffer.alloc(sizes.size)));
    frames.push({ file, name, size: sizes.size });
  }
  return {
    big: { file: big, name: 'A001.mov', size: sizes.bigBytes },
    framesDir: path.join(dir, 'frames'),
    frames,
  };
}
