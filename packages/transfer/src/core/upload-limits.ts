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
}

export const defaultUploadLimits: UploadLimits = {
  maxBatchBytes: 300 * MB,
  maxBatchItems: 10,
  largeFileThreshold: 150 * MB,
  baseChunkSize: 100 * MB,
  maxChunkSize: 600 * MB,
  maxSloSegments: 250,
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
