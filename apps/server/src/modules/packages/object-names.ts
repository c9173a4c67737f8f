import { randomBytes } from 'node:crypto';
import { cleanObjectName as cleanObjectNameWithSuffix } from '@filerunner/protocol';

/**
 * The object name a file is stored under: its cleaned base name with a random suffix, so two
 * files of the same name never collide (the cleaning rule is shared with the upload engine).
 */
export function cleanObjectName(userPath: string): string {
  return cleanObjectNameWithSuffix(userPath, randomBytes(6).toString('hex'));
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
