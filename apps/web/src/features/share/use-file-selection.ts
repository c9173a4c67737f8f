import { useCallback, useMemo, useState } from 'react';
import type { FilesystemConstraints } from '@filerunner/protocol';
import { planUpload, type ByteSource, type UploadPlan } from '@filerunner/transfer';
import {
  canPickHandles,
  FileSource,
  pickFiles,
  pickFolder,
  sourcesFromDrop,
  type PickedHandle,
} from '@filerunner/transfer/browser';
import {
  addToSelection,
  emptySelection,
  removeFromSelection,
  type FileSelection,
} from './file-selection';
import { nextTask } from '../../app/next-task';

export const readFailed = 'Sorry, we could not read those files. Please try adding them again.';

interface Picked {
  sources: readonly ByteSource[];
  picked: readonly PickedHandle[];
}

const cancelledPicker = (error: unknown) =>
  error instanceof DOMException && error.name === 'AbortError';

/** Work on the page's thread gives way this often, so the page keeps answering. */
const SLICE_MS = 30;
/** The count of files read is shown this often (each showing renders the screen). */
const PROGRESS_MS = 250;

/**
 * The files of an `<input>`, read a slice at a time. Chromium reads a file's date from disk the
 * first time it is asked (about 0.25 ms a file), so 10,000 files read at once would freeze the
 * page for seconds; `progress` tells how far it has got.
 */
async function readInputFiles(
  files: readonly File[],
  progress: (read: number) => void,
): Promise<Picked> {
  const sources: ByteSource[] = [];
  let sliceStart = performance.now();
  let shown = sliceStart;
  for (const file of files) {
    sources.push(new FileSource(file));
    const now = performance.now();
    if (now - sliceStart < SLICE_MS) continue;
    if (now - shown >= PROGRESS_MS) {
      progress(sources.length);
      shown = now;
    }
    await nextTask();
    sliceStart = performance.now();
  }
  return { sources, picked: [] };
}

/**
 * The files of the Share screen and their upload plan. Files come from the pickers (with
 * handles in Chromium, so an interrupted upload resumes after a reload), from `<input>`s (with
 * folder paths for a folder input) or from a drop; the plan is made again when they change.
 */
export function useFileSelection(options: {
  constraints: FilesystemConstraints | null;
  useSlabFiles: boolean;
}) {
  const [selection, setSelection] = useState<FileSelection>(emptySelection);
  const [reading, setReading] = useState(false);
  /** How many files of an `<input>` are read so far, while it is being read. */
  const [readCount, setReadCount] = useState<{ read: number; total: number } | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const { constraints, useSlabFiles } = options;

  const plan: UploadPlan = useMemo(
    () =>
      planUpload(selection.sources, {
        useSlabFiles,
        ...(constraints ? { constraints } : {}),
      }),
    [selection.sources, constraints, useSlabFiles],
  );

  const take = useCallback(async (pending: Promise<Picked>) => {
    setReading(true);
    setReadError(null);
    try {
      const { sources, picked } = await pending;
      setSelection((current) => addToSelection(current, sources, picked));
    } catch (error) {
      if (!cancelledPicker(error)) setReadError(readFailed);
    } finally {
      setReading(false);
      setReadCount(null);
    }
  }, []);

  return {
    selection,
    plan,
    reading,
    readError,
    /** Whether the pickers give handles; without them the `<input>`s are used. */
    handlesAvailable: canPickHandles(),
    pickFiles: () => take(pickFiles()),
    pickFolder: () => take(pickFolder()),
    readCount,
    /** Takes the files as an array: the input is emptied for the next pick right after. */
    fromInput: (files: readonly File[]) =>
      take(readInputFiles(files, (read) => setReadCount({ read, total: files.length }))),
    /** Call inside the drop handler: the dropped items are gone once it returns. */
    fromDrop: (data: DataTransfer) => take(sourcesFromDrop(data)),
    remove: useCallback(
      (paths: ReadonlySet<string>) => setSelection((s) => removeFromSelection(s, paths)),
      [],
    ),
    clear: useCallback(() => setSelection(emptySelection), []),
  };
}
