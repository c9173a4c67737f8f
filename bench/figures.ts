/** Rounds to two decimals, for figures printed as JSON. */
export const hundredths = (v: number) => Math.round(v * 100) / 100;

/** Median, min and max of repeated measurements. */
export function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const round = hundredths;
  return { median: round(median), min: round(sorted[0] ?? NaN), max: round(sorted.at(-1) ?? NaN) };
}
