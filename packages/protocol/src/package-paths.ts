/** The longest user path in a package, in UTF-16 units. */
export const packagePathMax = 4096;

/**
 * A user path inside a package: relative, '/'-separated, no empty, '.' or '..' segments, no NUL
 * and no broken Unicode (a lone surrogate cannot be written as UTF-8 in a tar header).
 */
export function isPackagePath(path: string): boolean {
  if (!path || path.length > packagePathMax || path.includes('\0')) return false;
  // With the u flag a proper surrogate pair is one code point, so this finds only lone halves.
  if (/[\uD800-\uDFFF]/u.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
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
