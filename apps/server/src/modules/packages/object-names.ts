import { createHash, randomBytes } from 'node:crypto';
import { cleanObjectName as cleanObjectNameWithSuffix } from '@filerunner/protocol';

/**
 * The object name a file is stored under (relative to the package's prefix): its cleaned base
 * name with a suffix taken from its whole path, so two files of the same name never collide (the
 * cleaning rule is shared with the upload engine). The same file always gets the same name, so
 * grants asked for again (renewed, or after a resume) write the object already there instead of
 * adding one, and the store can tell a declared file's object from any other name.
 */
export function fileObjectName(userPath: string): string {
  const suffix = createHash('sha256').update(userPath, 'utf8').digest('hex').slice(0, 12);
  return cleanObjectNameWithSuffix(userPath, suffix);
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
