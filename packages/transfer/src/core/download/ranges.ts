/** A half-open byte range [start, end). */
export type ByteRange = readonly [start: number, end: number];

/**
 * The bytes of one target written so far, as sorted, disjoint, non-adjacent ranges. Chunks write
 * a target at several offsets at once, so its bytes arrive as a few growing islands that merge.
 */
export class RangeSet {
  private ranges: [number, number][] = [];
  private covered = 0;

  constructor(ranges: readonly ByteRange[] = []) {
    for (const [start, end] of ranges) this.add(start, end);
  }

  /** Marks [start, end) written; answers how many of those bytes were not written before. */
  add(start: number, end: number): number {
    if (end <= start) return 0;
    const ranges = this.ranges;
    // The first range that ends at or after `start` (it may touch or overlap the new one).
    let low = 0;
    let high = ranges.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ranges[middle]![1] < start) low = middle + 1;
      else high = middle;
    }
    let mergedStart = start;
    let mergedEnd = end;
    let before = 0;
    let last = low;
    while (last < ranges.length && ranges[last]![0] <= end) {
      const [s, e] = ranges[last]!;
      before += e - s;
      mergedStart = Math.min(mergedStart, s);
      mergedEnd = Math.max(mergedEnd, e);
      last++;
    }
    ranges.splice(low, last - low, [mergedStart, mergedEnd]);
    const added = mergedEnd - mergedStart - before;
    this.covered += added;
    return added;
  }

  /** Bytes written. */
  get size(): number {
    return this.covered;
  }

  /** The ranges of [0, total) not written yet. */
  missing(total: number): ByteRange[] {
    const gaps: ByteRange[] = [];
    let at = 0;
    for (const [start, end] of this.ranges) {
      if (start > at) gaps.push([at, Math.min(start, total)]);
      at = Math.max(at, end);
    }
    if (at < total) gaps.push([at, total]);
    return gaps.filter(([start, end]) => end > start);
  }

  /** Where the written run holding byte `at` ends; `at` itself when that byte is not written. */
  endOfRunAt(at: number): number {
    for (const [start, end] of this.ranges) {
      if (start > at) break;
      if (end > at) return end;
    }
    return at;
  }

  toJSON(): ByteRange[] {
    return this.ranges.map(([start, end]) => [start, end] as const);
  }
}
