import { cleanObjectName, packageLimits } from '@filerunner/protocol';
import { layoutTar } from '@filerunner/transfer';
import { fileObjectName } from './object-names';

/** A file the sender declared when creating the package: its path and size. */
export interface DeclaredFile {
  readonly userPath: string;
  readonly size: number;
}

/** How much one object may hold, or why no object of that name belongs to the package. */
export type ObjectAllowance = { readonly maxBytes: number } | { readonly refused: string };

/** Why a name is refused: the words the store answers with. */
export const undeclaredObject = 'this object is not one of the package’s declared files';

/** The largest object storage takes (Swift's default max_file_size), so the largest segment. */
const MAX_SEGMENT_BYTES = 5 * 1024 ** 3;
/**
 * Segments the object count allows per file besides its whole object: one per 4 KiB, at most a
 * manifest's 250. Real segments are 100 MB or more; the count only stops a flood of tiny objects.
 */
export const SEGMENT_COUNT_UNIT = 4096;

/** How many objects a declared file of `size` bytes may have: its whole object and segments. */
export function objectsAllowedFor(size: number): number {
  return 1 + Math.min(packageLimits.maxSloSegments, Math.ceil(size / SEGMENT_COUNT_UNIT));
}

// The engine's names under the package prefix (decision 007): segments of a large file as
// `segments/<clean name>-<digest>.<ext>/<segment size>/<NNNNNN>`, slabs as `slabs/<name>`.
const SEGMENT = /^segments\/([^/]+)\/([1-9]\d{0,12})\/(\d{6})$/;
const SLAB = /^slabs\/[^/]+$/;
const DIGEST = /^[A-Za-z0-9]{1,64}$/;

/**
 * What a package's declared files let storage hold under its prefix. Every object is one the
 * engine names for a declared file (its whole object, a segment of it, a slab of small files),
 * none is larger than that file or segment, and together they hold at most `bytes` in at most
 * `objects` objects: the declared sizes, plus the tar framing slabs add (each file's header and
 * padding, and a slab's end blocks, at most as if every small file had a slab of its own).
 */
export class PackageDeclaration {
  readonly bytes: number;
  readonly objects: number;
  private readonly wholeObjects = new Map<string, number>();
  /** Declared files by the part of their segment folder before the digest. */
  private readonly segmentFolders = new Map<string, { tail: string; size: number }[]>();
  private readonly largestSmallFile: number;

  constructor(files: readonly DeclaredFile[]) {
    let bytes = 0;
    let objects = 0;
    let largestSmallFile = -1;
    for (const file of files) {
      this.wholeObjects.set(fileObjectName(file.userPath), file.size);
      const [head, tail] = cleanObjectName(file.userPath, '\u0000').split('\u0000') as [
        string,
        string,
      ];
      const sameHead = this.segmentFolders.get(head) ?? [];
      sameHead.push({ tail, size: file.size });
      this.segmentFolders.set(head, sameHead);
      if (file.size <= packageLimits.maxBatchBytes) {
        largestSmallFile = Math.max(largestSmallFile, file.size);
        bytes += layoutTar([{ path: file.userPath, size: file.size, mtime: 0 }]).size;
      } else {
        bytes += file.size;
      }
      objects += objectsAllowedFor(file.size);
    }
    this.bytes = bytes;
    this.objects = objects;
    this.largestSmallFile = largestSmallFile;
  }

  /** The allowance of the object `name` (relative to the package's prefix). */
  allowanceFor(name: string): ObjectAllowance {
    const whole = this.wholeObjects.get(name);
    if (whole !== undefined) return { maxBytes: whole };
    const segment = SEGMENT.exec(name);
    if (segment) return this.segmentAllowance(segment[1]!, Number(segment[2]), Number(segment[3]));
    // A slab holds small files with their tar framing; the total keeps it to the declaration.
    if (SLAB.test(name) && this.largestSmallFile >= 0) {
      return { maxBytes: Math.min(packageLimits.maxBatchBytes, this.bytes) };
    }
    return { refused: undeclaredObject };
  }

  /**
   * A segment fits a declared file when its folder is that file's clean name with a digest, its
   * size cuts the file into at most 250 segments of at most 600 MB (larger only when 250 of those
   * cannot hold the file), and its index lies inside the file: it may hold that segment's bytes.
   */
  private segmentAllowance(folder: string, segmentSize: number, index: number): ObjectAllowance {
    let maxBytes = -1;
    for (let dash = folder.indexOf('-'); dash >= 0; dash = folder.indexOf('-', dash + 1)) {
      for (const file of this.segmentFolders.get(folder.slice(0, dash + 1)) ?? []) {
        const digest = folder.slice(dash + 1, folder.length - file.tail.length);
        if (!folder.endsWith(file.tail) || !DIGEST.test(digest)) continue;
        const fewest = Math.ceil(file.size / packageLimits.maxSloSegments);
        const largest = Math.min(MAX_SEGMENT_BYTES, Math.max(packageLimits.maxChunkBytes, fewest));
        if (segmentSize < fewest || segmentSize > largest) continue;
        const start = index * segmentSize;
        if (start >= file.size) continue;
        maxBytes = Math.max(maxBytes, Math.min(segmentSize, file.size - start));
      }
    }
    return maxBytes < 0 ? { refused: undeclaredObject } : { maxBytes };
  }
}
