import {
  defaultFilesystemConstraints,
  fileFolderClash,
  filenameProblem,
  isPackagePath,
} from '@filerunner/protocol';
import { DownloadSinkError } from './ports';

/*
 * The sinks' containment rule: which names a download may write inside the folder it was given.
 * A name must stay inside that folder on every system the files may be unpacked on, not only on
 * this one: `..\..\Startup\run.bat` is one harmless name on Linux and leaves the folder on
 * Windows, and `CON.txt` opens the console there. So the rule is the package-path rule (relative,
 * '/'-separated, no empty, '.' or '..' segment) plus, for each segment, the filename constraints
 * of the strictest file system (no `\`, no `:` (drive letters, NTFS streams), no reserved device
 * name, no trailing dot or space), whatever the platform this runs on.
 */

/** Whether `path` names a file inside a download's folder on every platform. */
export function staysInFolder(path: string): boolean {
  return (
    isPackagePath(path) &&
    path
      .split('/')
      .every((segment) => filenameProblem(segment, defaultFilesystemConstraints) === null)
  );
}

/** How a sink refuses a target whose name fails `staysInFolder`: that file fails, the rest go on. */
export function nameOutsideFolder(name: string): DownloadSinkError {
  return new DownloadSinkError(
    'name',
    `${quotedNames([name])}: not a name that stays inside the folder on every system`,
    false,
  );
}

/**
 * The form two names that are one file somewhere share: Windows and macOS fold case, and macOS
 * also composes Unicode, so `Shot.exr`, `shot.exr` and the decomposed `Shöt`/`Shöt` collide there.
 */
export function folderPathKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/** Names of a package's file list that cannot all be unpacked into one folder, by reason. */
export interface UnpackableMembers {
  /** Names that would leave the folder, or cannot exist, on some platform. */
  readonly outside: string[];
  /** Names given more than once (equal once case and Unicode form are set aside). */
  readonly duplicates: string[];
  /** A name that is both a file and a folder of other files, or null. */
  readonly clash: string | null;
}

/** What keeps `paths` from being unpacked side by side in one folder, or null when nothing does. */
export function unpackableMembers(paths: readonly string[]): UnpackableMembers | null {
  const outside = paths.filter((path) => !staysInFolder(path));
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const path of paths) {
    const key = folderPathKey(path);
    if (seen.has(key)) duplicates.add(path);
    seen.add(key);
  }
  const clash = fileFolderClash(seen);
  if (outside.length === 0 && duplicates.size === 0 && clash === null) return null;
  return { outside, duplicates: [...duplicates], clash };
}

/** At most `max` names, quoted (a name may hold anything a terminal would act on), on one line. */
export function quotedNames(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((name) => JSON.stringify(name));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
