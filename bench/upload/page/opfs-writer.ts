/**
 * Writes the bench's files into the origin-private file system before anything is measured.
 * A worker, because only workers get `createSyncAccessHandle()`, which writes several times
 * faster than a page's `createWritable()`: preparing 2 GiB stays a matter of seconds.
 */

import type { WriteOrder } from './api';

// The worker's globals, as far as used here (the DOM library the bench type-checks with lacks them).
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WriteOrder>) => void) | null;
  postMessage(reply: { ok: boolean; message?: string }): void;
};
interface SyncAccessHandle {
  truncate(size: number): void;
  write(bytes: Uint8Array, options: { at: number }): number;
  flush(): void;
  close(): void;
}
const syncAccess = (handle: FileSystemFileHandle) =>
  (
    handle as FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> }
  ).createSyncAccessHandle();
const CHUNK = 8 * 1024 * 1024;
const FILES_IN_FLIGHT = 8;

/** Random bytes (getRandomValues fills at most 64 KiB per call). */
function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let offset = 0; offset < size; offset += 65_536) {
    crypto.getRandomValues(bytes.subarray(offset, Math.min(size, offset + 65_536)));
  }
  return bytes;
}

async function folderOf(path: string): Promise<FileSystemDirectoryHandle> {
  let folder = await navigator.storage.getDirectory();
  for (const name of path.split('/').filter(Boolean)) {
    folder = await folder.getDirectoryHandle(name, { create: true });
  }
  return folder;
}

async function writeFile(
  folder: FileSystemDirectoryHandle,
  name: string,
  chunks: () => Iterable<Uint8Array<ArrayBuffer>>,
) {
  const handle = await folder.getFileHandle(name, { create: true });
  const access = await syncAccess(handle);
  try {
    access.truncate(0);
    let at = 0;
    for (const chunk of chunks()) at += access.write(chunk, { at });
  } finally {
    access.close();
  }
}

/** A large file: one random chunk written over and over (storage keeps every byte anyway). */
async function writeLargeFile(path: string, size: number) {
  const parts = path.split('/');
  const chunk = randomBytes(Math.min(CHUNK, size));
  await writeFile(await folderOf(parts.slice(0, -1).join('/')), parts.at(-1)!, function* () {
    for (let offset = 0; offset < size; offset += chunk.length) {
      yield chunk.subarray(0, Math.min(chunk.length, size - offset));
    }
  });
}

/**
 * Files `first` to `first + count - 1` of random bytes, in subfolders of `perFolder` files, as a
 * camera's frames; a few at a time, since each file's creation waits on the browser's storage
 * process.
 */
async function writeFolder(
  path: string,
  first: number,
  count: number,
  size: number,
  perFolder: number,
) {
  const folders = new Map<number, FileSystemDirectoryHandle>();
  const folderFor = async (i: number) => {
    const n = Math.floor(i / perFolder);
    let folder = folders.get(n);
    if (!folder) {
      folder = await folderOf(`${path}/d${String(n).padStart(3, '0')}`);
      folders.set(n, folder);
    }
    return folder;
  };
  for (let i = first; i < first + count; i += perFolder) await folderFor(i);
  let next = first;
  const writer = async () => {
    while (next < first + count) {
      const i = next++;
      const bytes = randomBytes(size);
      await writeFile(await folderFor(i), `f${String(i).padStart(5, '0')}.bin`, () => [bytes]);
    }
  };
  await Promise.all(Array.from({ length: FILES_IN_FLIGHT }, writer));
}

async function write(order: WriteOrder) {
  try {
    if (order.kind === 'file') await writeLargeFile(order.path, order.size);
    else await writeFolder(order.path, order.first, order.count, order.size, order.perFolder);
    scope.postMessage({ ok: true });
  } catch (error) {
    scope.postMessage({ ok: false, message: String(error) });
  }
}

scope.onmessage = (event) => void write(event.data);
