import { cleanObjectName } from '@filerunner/protocol';
import type { ByteSource } from '../ports';
import { largeFileChunkSize, type UploadLimits } from '../upload-limits';
import { filesFingerprint } from './ledger';
import type { LargeFile } from './plan';

/**
 * The segment size of a large file: the chunk-size table's, grown when the file would otherwise
 * need more than `maxSloSegments` segments. The server joins one file from one `slo` call of at
 * most that many segments (no manifests of manifests), so bigger segments are the only way to
 * send a bigger file. Never more than `maxSegmentSize`, the most storage takes in one PUT; null
 * when even segments of that size are too few.
 */
export function segmentSizeFor(fileSize: number, limits: UploadLimits): number | null {
  const fewestBytes = Math.ceil(fileSize / limits.maxSloSegments);
  if (fewestBytes > limits.maxSegmentSize) return null;
  const size = Math.max(largeFileChunkSize(fileSize, limits), fewestBytes);
  return Math.min(size, limits.maxSegmentSize);
}

/**
 * A large file cut into contiguous segments, in order, covering every byte once. Segment names
 * (under the package prefix) come from the file's path, size and time, so a resumed upload of the
 * same file names the same objects and finds those already stored; the segment size is in the
 * name too, so segments cut differently never mix.
 * Null when the file is too large to send (see `segmentSizeFor`).
 */
export function planLargeFile(source: ByteSource, limits: UploadLimits): LargeFile | null {
  const segmentSize = segmentSizeFor(source.size, limits);
  if (segmentSize === null) return null;
  const digest = filesFingerprint([source]).replace(/^\d+-/, '');
  const count = Math.max(1, Math.ceil(source.size / segmentSize));
  const segments = Array.from({ length: count }, (_, index) => ({
    index,
    start: index * segmentSize,
    end: Math.min(source.size, (index + 1) * segmentSize),
    name: segmentObjectName(source.path, digest, segmentSize, index),
  }));
  return { source, segmentSize, segments };
}

/**
 * The object name (under the package prefix) of a large file's segment:
 * `segments/<clean name>-<digest>.<ext>/<segment size>/<NNNNNN>`. Storage lets a grant write
 * only names of this shape for a declared file, its size and index inside the file.
 */
export function segmentObjectName(
  path: string,
  digest: string,
  segmentSize: number,
  index: number,
): string {
  // Zero-padded, so a listing of the folder sorts in manifest order.
  const position = String(index).padStart(6, '0');
  return `segments/${cleanObjectName(path, digest)}/${segmentSize}/${position}`;
}
