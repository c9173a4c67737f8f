import { FileSource, type PickedSource } from './file-sources';
import { sourcesFromPickedHandles, type PickedHandle } from './picked-handles';

/** What a drop held: every file under it, and the handles to keep for a resume (if any). */
export interface DroppedFiles {
  sources: PickedSource[];
  /** Empty when the browser gives no handles for dropped items; then a reload needs a re-pick. */
  picked: PickedHandle[];
}

interface DropItemWithHandle {
  getAsFileSystemHandle(): Promise<FileSystemHandle | null>;
}

/** One dropped item, taken while the drop event runs: the browser empties the list after it. */
interface TakenItem {
  handle: Promise<FileSystemHandle | null> | null;
  entry: FileSystemEntry | null;
  file: File | null;
}

/**
 * Every file of a drop, folders walked with their paths kept (`Shoot/Day 1/A001.mov`). Call it
 * inside the drop handler, before any `await`: the items are read synchronously there. Chromium
 * gives handles (kept for a resume after a reload); other browsers give entries or plain files.
 */
export function sourcesFromDrop(dataTransfer: DataTransfer): Promise<DroppedFiles> {
  const taken: TakenItem[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file') continue;
    taken.push({
      handle:
        'getAsFileSystemHandle' in item
          ? (item as DataTransferItem & DropItemWithHandle)
              .getAsFileSystemHandle()
              .catch(() => null)
          : null,
      entry: item.webkitGetAsEntry?.() ?? null,
      file: item.getAsFile(),
    });
  }
  return readTaken(taken);
}

async function readTaken(taken: TakenItem[]): Promise<DroppedFiles> {
  const picked: PickedHandle[] = [];
  const sources: PickedSource[] = [];
  for (const item of taken) {
    const handle = await item.handle;
    if (handle?.kind === 'file') {
      picked.push({ kind: 'file', path: handle.name, handle: handle as FileSystemFileHandle });
    } else if (handle?.kind === 'directory') {
      const directory = handle as FileSystemDirectoryHandle;
      picked.push({ kind: 'directory', path: directory.name, handle: directory });
    } else if (item.entry) {
      sources.push(...(await sourcesFromEntry(item.entry)));
    } else if (item.file) {
      sources.push(new FileSource(item.file));
    }
  }
  sources.unshift(...(await sourcesFromPickedHandles(picked)));
  return { sources, picked };
}

/** The files under an entry of the older Entries API, with its full path (less the leading /). */
async function sourcesFromEntry(entry: FileSystemEntry): Promise<FileSource[]> {
  const path = entry.fullPath.replace(/^\/+/, '') || entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    return [new FileSource(file, path)];
  }
  const sources: FileSource[] = [];
  for (const child of await readAllEntries(entry as FileSystemDirectoryEntry)) {
    sources.push(...(await sourcesFromEntry(child)));
  }
  return sources;
}

/** A directory reader answers in batches (100 in Chromium) until it answers an empty one. */
async function readAllEntries(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}
