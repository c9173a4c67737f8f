import { openAsBlob } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ByteSource } from '../core/ports';
import { fileSlice } from './file-reads';

/**
 * A file on disk as the engine's byte source. `fs.openAsBlob` gives a Blob backed by the file:
 * slices of it, and Blobs composed of those slices (a slab, a multipart form), read from disk
 * only when sent, and reading fails if the file changed since it was opened (so a file edited
 * mid-upload fails rather than sends a mix). No descriptor stays open meanwhile. The slices are
 * known as the file's (`fileSlice`), so the Node ports send and hash them in large reads.
 */
export async function fileSource(filePath: string, packagePath: string): Promise<ByteSource> {
  const info = await stat(filePath);
  if (!info.isFile()) throw new Error(`not a file: ${filePath}`);
  const blob = await openAsBlob(filePath);
  return {
    path: packagePath,
    size: blob.size,
    lastModified: Math.floor(info.mtimeMs),
    slice: (start, end) => fileSlice(blob.slice(start, end), filePath, info, start),
  };
}

/** Whether a symbolic link leads to a file (a broken link leads nowhere and is left out). */
async function linksToFile(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/** The package path of `filePath` below `root`, with `/` between folders. */
function packagePathOf(root: string, filePath: string): string {
  return path.relative(root, filePath).split(path.sep).join('/');
}

/**
 * The files of the paths given, as the Share screen picks them: a file is sent under its own
 * name; a folder keeps its name and its inner folders (`shots/day1/a.mov`). Symbolic links are
 * followed to files, not into folders (a link cycle would never end). Sorted by package path.
 */
export async function walkPaths(paths: readonly string[]): Promise<ByteSource[]> {
  const found: { filePath: string; packagePath: string }[] = [];
  for (const given of paths) {
    const absolute = path.resolve(given);
    const info = await stat(absolute);
    if (info.isFile()) {
      found.push({ filePath: absolute, packagePath: path.basename(absolute) });
      continue;
    }
    const root = path.dirname(absolute);
    const folders = [absolute];
    while (folders.length > 0) {
      const folder = folders.pop()!;
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const filePath = path.join(folder, entry.name);
        if (entry.isDirectory()) folders.push(filePath);
        else if (entry.isFile() || (entry.isSymbolicLink() && (await linksToFile(filePath)))) {
          found.push({ filePath, packagePath: packagePathOf(root, filePath) });
        }
      }
    }
  }
  found.sort((a, b) =>
    a.packagePath < b.packagePath ? -1 : a.packagePath > b.packagePath ? 1 : 0,
  );
  const sources: ByteSource[] = [];
  for (const { filePath, packagePath } of found) {
    sources.push(await fileSource(filePath, packagePath));
  }
  return sources;
}
