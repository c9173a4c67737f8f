import type { ByteSource } from '@filerunner/transfer';
import type { PickedHandle } from '@filerunner/transfer/browser';

/** A picked file with its handle, when the browser gave one (so a resume can read it again). */
type WithHandle = ByteSource & { handle: FileSystemFileHandle };

const hasHandle = (source: ByteSource): source is WithHandle => 'handle' in source;

/**
 * The files chosen on the Share screen, each path once (a file picked again replaces the
 * earlier one), and the handles they were picked through, with how many files each gave.
 */
export interface FileSelection {
  sources: ByteSource[];
  picked: { entry: PickedHandle; files: number }[];
}

export const emptySelection: FileSelection = { sources: [], picked: [] };

const under = (entry: PickedHandle, path: string) =>
  entry.kind === 'file' ? path === entry.path : path.startsWith(`${entry.path}/`);

/** The selection with `sources` added, replacing files of the same path. */
export function addToSelection(
  selection: FileSelection,
  sources: readonly ByteSource[],
  picked: readonly PickedHandle[] = [],
): FileSelection {
  const byPath = new Map(selection.sources.map((s) => [s.path, s]));
  for (const source of sources) {
    byPath.delete(source.path);
    byPath.set(source.path, source);
  }
  const added = picked.map((entry) => ({
    entry,
    files: sources.filter((s) => under(entry, s.path)).length,
  }));
  const replaced = new Set(picked.map((entry) => entry.path));
  return {
    sources: [...byPath.values()],
    picked: [...selection.picked.filter((p) => !replaced.has(p.entry.path)), ...added],
  };
}

/** The selection without the files at `paths`. */
export function removeFromSelection(
  selection: FileSelection,
  paths: ReadonlySet<string>,
): FileSelection {
  return { ...selection, sources: selection.sources.filter((s) => !paths.has(s.path)) };
}

/**
 * The handles to keep for resuming the upload of the selection: a picked folder whose files
 * are all still chosen is kept whole (one permission prompt covers it after a reload); of a
 * folder the sender removed files from, only the remaining files' handles, so a resume reads
 * exactly the files that were sent.
 */
export function handlesToKeep(selection: FileSelection): PickedHandle[] {
  const withHandles = selection.sources.filter(hasHandle);
  return selection.picked.flatMap(({ entry, files }) => {
    const remaining = withHandles.filter((s) => under(entry, s.path));
    if (remaining.length === 0) return [];
    if (remaining.length === files) return [entry];
    return remaining.map((s): PickedHandle => ({ kind: 'file', path: s.path, handle: s.handle }));
  });
}
