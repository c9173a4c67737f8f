import type { TarLayout } from '@filerunner/transfer';

/** Byte ranges [start, end) of a tar, merged and in order, as PostgreSQL keeps a download's. */
export type ServedRanges = readonly (readonly [number, number])[];

/**
 * A multirange of int8 as PostgreSQL writes it, `{[0,512),[1024,4096)}`: canonical, merged,
 * sorted, so it reads straight into `ServedRanges`.
 */
export function parseServedRanges(text: string | null): ServedRanges {
  return [...(text ?? '').matchAll(/\[(\d+),(\d+)\)/g)].map(
    (m) => [Number(m[1]), Number(m[2])] as const,
  );
}

/**
 * For each of the tar's first `count` entries (all when omitted), whether every byte of its
 * data lies in `served`. An engine unpacking the tar need not fetch headers and padding (it
 * knows the layout), so only the files' own bytes count. An empty file has no bytes to send:
 * it counts as delivered when its header was, or when every file with bytes was.
 */
export function entriesCovered(
  served: ServedRanges,
  layout: TarLayout,
  count = layout.entries.length,
): boolean[] {
  const entries = layout.entries.slice(0, count);
  const covered: boolean[] = [];
  let range = 0;
  for (const entry of entries) {
    const start = entry.dataOffset;
    const end = start + entry.source.size;
    if (end === start) {
      covered.push(
        served.some(([from, to]) => from <= entry.headerOffset && entry.headerOffset < to),
      );
      continue;
    }
    // Entries and ranges both run in tar order, so one pass over the ranges serves every entry.
    while (range < served.length && served[range]![1] < end) range++;
    const covering = served[range];
    covered.push(Boolean(covering && covering[0] <= start && covering[1] >= end));
  }
  const everyFileWithBytes = entries.every((e, i) => e.source.size === 0 || covered[i]);
  return everyFileWithBytes ? covered.map(() => true) : covered;
}
