import { randomBytes } from 'node:crypto';

const MAX_STEM = 80;

/**
 * The object name a file is stored under: its base name reduced to letters, digits, '.', '-' and
 * '_' (so it is safe in a URL, a FormPost part and every storage backend), with a random suffix
 * so two files of the same name never collide. The user's path is kept as metadata only.
 */
export function cleanObjectName(userPath: string): string {
  const base = userPath.slice(userPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot + 1)] : [base, ''];
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '');
  const cleanStem = clean(stem).slice(0, MAX_STEM) || 'file';
  const cleanExt = clean(ext).slice(0, 16);
  const suffix = randomBytes(6).toString('hex');
  return cleanExt ? `${cleanStem}-${suffix}.${cleanExt}` : `${cleanStem}-${suffix}`;
}

/** A fresh package slug: 12 URL-safe characters, unguessable enough that slugs reveal nothing. */
export function newPackageSlug(): string {
  return randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').toLowerCase();
}

/** Where a package's objects live in its container: every one under this prefix. */
export function packageObjectPrefix(slug: string): string {
  return `packages/${slug}/`;
}

/** The slug of the package an object key lies under (see `packageObjectPrefix`), or null. */
export function packageSlugOfObject(key: string): string | null {
  return /^packages\/([^/]+)\//.exec(key)?.[1] ?? null;
}
