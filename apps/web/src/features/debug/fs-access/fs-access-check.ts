import { filenameProblem, pathProblems, type FilesystemConstraints } from '@filerunner/protocol';

/** Whether a name can be sent and written here, and why not. */
export interface FsTestResult {
  filename: string;
  success: boolean;
  /** The reasons it is refused, one a line; null when allowed. */
  error: string | null;
}

/** The results the page shows, newest first. */
export const MAX_RESULTS = 20;

export const fsAccessTexts = {
  noDirectory: 'No directory selected',
  selectFailed: 'Failed to select directory',
  allowed: 'Allowed',
  invalid: 'Invalid',
  blank: 'Enter a file name',
  refused: (name: string, cause: string) => `This folder refused "${name}": ${cause}`,
} as const;

/**
 * Tests a name (or a '/'-separated path, as a picked folder gives) twice: against the server's
 * filename constraints, which every recipient's download must meet, and by really creating each
 * part of it in `directory` (folders as folders, the last part as a file, written and closed)
 * and removing it again, which tells what this computer's file system accepts. A name already
 * there is known to be accepted, and is left alone.
 */
export async function testFilename(
  filename: string,
  constraints: FilesystemConstraints,
  directory: FileSystemDirectoryHandle,
): Promise<FsTestResult> {
  const reasons = filename.includes('/')
    ? pathProblems(filename, constraints)
    : [filenameProblem(filename, constraints)].filter((r): r is string => r !== null);
  const parts = filename.split('/').filter((part) => part !== '');
  for (const [i, part] of parts.entries()) {
    const cause = await tryCreate(directory, part, i === parts.length - 1 ? 'file' : 'directory');
    if (cause) reasons.push(fsAccessTexts.refused(part, cause));
  }
  return { filename, success: reasons.length === 0, error: reasons.join('\n') || null };
}

/** Why the file system refused to create `name`, or null when it could. */
async function tryCreate(
  directory: FileSystemDirectoryHandle,
  name: string,
  kind: 'file' | 'directory',
): Promise<string | null> {
  try {
    if (await exists(directory, name)) return null;
    if (kind === 'directory') {
      await directory.getDirectoryHandle(name, { create: true });
    } else {
      const file = await directory.getFileHandle(name, { create: true });
      // Chromium writes to a side file and renames it on close: the rename is where a real
      // disk refuses some names, so the test writes and closes like a download does.
      const writable = await file.createWritable();
      await writable.write(new Uint8Array([0x46, 0x52]));
      await writable.close();
    }
    await directory.removeEntry(name, { recursive: kind === 'directory' });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  }
}

async function exists(directory: FileSystemDirectoryHandle, name: string): Promise<boolean> {
  const found = async (lookUp: () => Promise<unknown>) =>
    lookUp().then(
      () => true,
      (error: unknown) => error instanceof DOMException && error.name === 'TypeMismatchError',
    );
  return found(() => directory.getFileHandle(name));
}

/** The names a drop holds: each dropped file's or folder's own name, read while the event runs. */
export function namesOfDrop(data: DataTransfer): string[] {
  return Array.from(data.items).flatMap((item) => {
    if (item.kind !== 'file') return [];
    const name = item.webkitGetAsEntry?.()?.name ?? item.getAsFile()?.name;
    return name ? [name] : [];
  });
}

/** The names of picked files: with a picked folder, each file's path inside it. */
export function namesOfPicked(files: readonly File[]): string[] {
  return files.map((file) => file.webkitRelativePath || file.name);
}
