import { FileHandleSource, sourcesFromDirectoryHandle } from './file-sources';

/**
 * What the sender picked through the File System Access API, kept per upload so the same files
 * can be read again after a reload: single files with their path in the package, and folders
 * with the path their files start at. Handles are structured-cloneable into IndexedDB.
 */
export type PickedHandle =
  | { kind: 'file'; path: string; handle: FileSystemFileHandle }
  | { kind: 'directory'; path: string; handle: FileSystemDirectoryHandle };

/** The sources of picked handles: each file, and every file under each folder. */
export async function sourcesFromPickedHandles(
  picked: readonly PickedHandle[],
): Promise<FileHandleSource[]> {
  const sources: FileHandleSource[] = [];
  for (const entry of picked) {
    if (entry.kind === 'file') sources.push(await FileHandleSource.open(entry.handle, entry.path));
    else sources.push(...(await sourcesFromDirectoryHandle(entry.handle, entry.path)));
  }
  return sources;
}

// Chromium's permission and picker calls, which TypeScript's DOM library does not declare yet.
interface HandlePermissions {
  queryPermission(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}
export interface FileSystemAccessWindow {
  showOpenFilePicker(options?: { multiple?: boolean }): Promise<FileSystemFileHandle[]>;
  showDirectoryPicker(options?: {
    mode?: 'read' | 'readwrite';
  }): Promise<FileSystemDirectoryHandle>;
}

/** The handle's permission calls, or null in a browser whose handles have none. */
export const permissionsOf = (handle: FileSystemHandle) =>
  'queryPermission' in handle ? (handle as FileSystemHandle & HandlePermissions) : null;

const rank: Record<PermissionState, number> = { denied: 0, prompt: 1, granted: 2 };

/**
 * Whether the page may read every picked handle now: 'granted' when all are, else the worst
 * state. After a reload Chromium answers 'prompt' until the sender grants read access again
 * (unless they chose to allow it on every visit); a browser without permission calls on handles
 * has nothing to ask, so it counts as 'granted'.
 */
export async function queryReadPermission(
  picked: readonly PickedHandle[],
): Promise<PermissionState> {
  let worst: PermissionState = 'granted';
  for (const { handle } of picked) {
    const state = (await permissionsOf(handle)?.queryPermission({ mode: 'read' })) ?? 'granted';
    if (rank[state] < rank[worst]) worst = state;
  }
  return worst;
}

/**
 * Asks for read access to every picked handle not readable yet; true when all are readable. Call
 * it from the sender's click (the Resume button): Chromium shows its prompt only during a user
 * gesture, and one prompt for a folder covers every file in it.
 */
export async function requestReadPermission(picked: readonly PickedHandle[]): Promise<boolean> {
  for (const { handle } of picked) {
    const permissions = permissionsOf(handle);
    if (!permissions) continue;
    if ((await permissions.queryPermission({ mode: 'read' })) === 'granted') continue;
    if ((await permissions.requestPermission({ mode: 'read' })) !== 'granted') return false;
  }
  return true;
}

/** Whether the browser has the pickers that give handles (Chromium), so uploads can resume. */
export function canPickHandles(): boolean {
  return 'showOpenFilePicker' in globalThis && 'showDirectoryPicker' in globalThis;
}

export interface PickedWithHandles {
  sources: FileHandleSource[];
  /** What to keep in the picked-handle store for a resume after a reload. */
  picked: PickedHandle[];
}

/** Opens the browser's file picker; rejects with AbortError when the sender cancels it. */
export async function pickFiles(): Promise<PickedWithHandles> {
  const handles = await (globalThis as unknown as FileSystemAccessWindow).showOpenFilePicker({
    multiple: true,
  });
  const picked = handles.map((handle): PickedHandle => ({
    kind: 'file',
    path: handle.name,
    handle,
  }));
  return { picked, sources: await sourcesFromPickedHandles(picked) };
}

/** Opens the browser's folder picker; the folder's name starts its files' paths. */
export async function pickFolder(): Promise<PickedWithHandles> {
  const handle = await (globalThis as unknown as FileSystemAccessWindow).showDirectoryPicker({
    mode: 'read',
  });
  const picked: PickedHandle[] = [{ kind: 'directory', path: handle.name, handle }];
  return { picked, sources: await sourcesFromPickedHandles(picked) };
}
