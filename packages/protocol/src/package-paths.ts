import { RESERVED_DEVICE_NAME, filenameMessages } from './filesystem';

/** The longest user path in a package, in UTF-16 units. */
export const packagePathMax = 4096;

/** Why a path cannot be a package's: the structure (relative, '/' between folders) is wrong. */
export const packagePathMessage =
  'File paths are relative, use / between folders and have no empty or .. segments.';

/**
 * Segments no folder can hold as a file of its own on every recipient's system. Windows reads `\`
 * as a folder separator (`..\..\x` leaves the folder) and `C:` at the start of a segment as a
 * drive; it opens the reserved names (with any extension, in any case) as devices; it drops
 * trailing dots and spaces, so `a.` would land on `a` (and `.. ` on `..`).
 */
const UNWRITABLE_SEGMENT = [/\\/, /^[A-Za-z]:/, RESERVED_DEVICE_NAME, /[. ]$/];

/**
 * Why `path` cannot be a user path inside a package, or null when it can. A package path is
 * relative, '/'-separated, with no empty, '.' or '..' segments, no NUL and no broken Unicode (a
 * lone surrogate cannot be written as UTF-8 in a tar header), and no segment a recipient's
 * system would read as anything but a name in its folder (see UNWRITABLE_SEGMENT): the message
 * names the segment in the spec's words. Server and clients refuse the same paths with it.
 */
export function packagePathProblem(path: string): string | null {
  if (!path || path.length > packagePathMax || path.includes('\0')) return packagePathMessage;
  // With the u flag a proper surrogate pair is one code point, so this finds only lone halves.
  if (/[\uD800-\uDFFF]/u.test(path)) return packagePathMessage;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return packagePathMessage;
  const unwritable = segments.find((s) => UNWRITABLE_SEGMENT.some((rule) => rule.test(s)));
  return unwritable === undefined
    ? null
    : filenameMessages.segment(unwritable, filenameMessages.invalid);
}

/** Whether `path` can be a user path inside a package (see packagePathProblem). */
export function isPackagePath(path: string): boolean {
  return packagePathProblem(path) === null;
}

/** A path that is both a file and a folder of another file (`a` and `a/b`): one would be lost. */
export function fileFolderClash(paths: Iterable<string>): string | null {
  const files = new Set(paths);
  for (const path of files) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (files.has(path.slice(0, slash))) return path.slice(0, slash);
    }
  }
  return null;
}

const OBJECT_STEM_MAX = 80;
const OBJECT_EXT_MAX = 16;

/**
 * The object name a file is stored under: its base name reduced to letters, digits, '.', '-' and
 * '_' (so it is safe in a URL, a FormPost part and every storage backend), with `suffix` added so
 * two files of the same name never collide. The user's path is kept as metadata only. The server
 * passes a random suffix; the upload engine one derived from the file, so a resumed upload names
 * its segments the same way again.
 */
export function cleanObjectName(userPath: string, suffix: string): string {
  const base = userPath.slice(userPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot + 1)] : [base, ''];
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      // Accented letters keep their base letter ('über' is 'uber', not 'u_ber').
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '');
  const cleanStem = clean(stem).slice(0, OBJECT_STEM_MAX) || 'file';
  const cleanExt = clean(ext).slice(0, OBJECT_EXT_MAX);
  return cleanExt ? `${cleanStem}-${suffix}.${cleanExt}` : `${cleanStem}-${suffix}`;
}
