/**
 * The upload planner's limits. Sizes in MB are decimal, as the product
 * shows them; the chunk-size steps are in GiB, as the spec writes them.
 */
export const MB = 1_000_000;
export const GiB = 1024 ** 3;

export interface UploadLimits {
  maxBatchBytes: number;
  maxBatchItems: number;
  /** Files above this go up as SLO segments; smaller ones by FormPost batches or slabs. */
  largeFileThreshold: number;
  baseChunkSize: number;
  maxChunkSize: number;
  maxSloSegments: number;
  /**
   * The largest object storage takes in one PUT (Swift's default max_file_size), so the largest
   * segment; a file past maxSloSegments of these cannot be sent.
   */
  maxSegmentSize: number;
  /** A slab object's size cap, tar headers included. */
  maxSlabBytes: number;
  /** Files in one slab at most: each is a row the server records when the slab is reported. */
  maxSlabFiles: number;
}

export const defaultUploadLimits: UploadLimits = {
  maxBatchBytes: 300 * MB,
  maxBatchItems: 10,
  largeFileThreshold: 150 * MB,
  baseChunkSize: 100 * MB,
  maxChunkSize: 600 * MB,
  maxSloSegments: 250,
  maxSegmentSize: 5 * GiB,
  // As much as a FormPost batch: one request, so one retry, costs the same either way, and with
  // several slabs in flight the workers stay busy.
  maxSlabBytes: 300 * MB,
  // Keeps one `updateslabfile` call quick, and splits a folder of tiny frames into enough slabs
  // to spread over the workers (10,000 files make 10 slabs).
  maxSlabFiles: 1000,
};

// From this file size up, segments are this fraction of the maximum chunk size.
const CHUNK_STEPS: readonly [fromBytes: number, fractionOfMax: number][] = [
  [50 * GiB, 1],
  [40 * GiB, 4 / 5],
  [30 * GiB, 3 / 5],
  [20 * GiB, 2 / 5],
  [10 * GiB, 1 / 5],
  [5 * GiB, 1 / 10],
  [1 * GiB, 1 / 20],
];

/**
 * The segment size for a large file: bigger files get bigger segments so that even a 50 GiB
 * file stays within one SLO manifest's segment limit; never below the base size.
 */
export function largeFileChunkSize(
  fileSize: number,
  limits: UploadLimits = defaultUploadLimits,
): number {
  const step = CHUNK_STEPS.find(([from]) => fileSize >= from);
  const size = step ? Math.floor(limits.maxChunkSize * step[1]) : limits.baseChunkSize;
  return Math.max(size, limits.baseChunkSize);
}
