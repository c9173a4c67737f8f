/**
 * Splits `items`, in order, into groups of at most `maxItems` items whose `weight`s add up to at
 * most `maxBytes`. Greedy in order: a group closes when the next item would break a limit, so
 * the same list always packs the same way (a resumed upload finds the same batches). An item
 * heavier than `maxBytes` on its own gets a group of its own rather than being dropped.
 */
export function packInOrder<T>(
  items: readonly T[],
  weight: (item: T) => number,
  limits: { maxItems: number; maxBytes: number },
): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const itemBytes = weight(item);
    if (
      group.length > 0 &&
      (group.length >= limits.maxItems || bytes + itemBytes > limits.maxBytes)
    ) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(item);
    bytes += itemBytes;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
