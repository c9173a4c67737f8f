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
