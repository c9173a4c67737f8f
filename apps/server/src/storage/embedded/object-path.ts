import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Maps Swift names onto a directory tree a person can still read:
 *   <root>/<account>/<container>/<segment>.d/…/<segment>.o
 * Keys are split on '/', so a prefix is a directory and listing a prefix walks one subtree.
 * Every object file ends in `.o` and every directory in `.d`, so the objects `a` and `a/b`
 * can both exist, and no key can produce `.`, `..` or the store's own files (`.tmp`,
 * `.container.json`). Bytes outside [A-Za-z0-9._-] are percent-encoded; a segment whose
 * encoding would pass the 255-byte file-name limit is named by its SHA-256 instead (the
 * object file keeps the real key, so nothing needs to be decoded back).
 */

export const OBJECT_SUFFIX = '.o';
export const DIRECTORY_SUFFIX = '.d';
export const CONTAINER_METADATA_FILE = '.container.json';

/** Swift's default constraints (swift/common/constraints.py). */
export const MAX_OBJECT_NAME_BYTES = 1024;
export const MAX_CONTAINER_NAME_BYTES = 256;
const MAX_FILE_NAME_BYTES = 255;

const ACCOUNT_NAME = /^[A-Za-z0-9_-]{1,128}$/;

function encodeSegment(segment: string): string {
  let encoded = '';
  for (const byte of Buffer.from(segment, 'utf8')) {
    const isPlain =
      (byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x2e ||
      byte === 0x5f ||
      byte === 0x2d;
    encoded += isPlain
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (encoded.length + 2 > MAX_FILE_NAME_BYTES) {
    // '#' is always percent-encoded above, so hashed names never collide with plain ones.
    encoded = `#${createHash('sha256').update(segment, 'utf8').digest('hex')}`;
  }
  return encoded;
}

/** Why a name is refused, in Swift's words, or null when it is acceptable. */
export function invalidObjectName(key: string): string | null {
  if (key.length === 0) return 'Object name must not be empty';
  if (key.includes('\0')) return 'Object name must not contain NUL';
  if (!isWellFormed(key)) return 'Object name must be valid UTF-8';
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > MAX_OBJECT_NAME_BYTES) {
    return `Object name length of ${bytes} longer than ${MAX_OBJECT_NAME_BYTES}`;
  }
  return null;
}

export function invalidContainerName(container: string): string | null {
  if (container.length === 0) return 'Container name must not be empty';
  if (container.includes('/')) return "Container name must not contain '/'";
  // They would name the account's own directory or the store root on disk.
  if (container === '.' || container === '..') return 'Container name must not be . or ..';
  if (container.includes('\0')) return 'Container name must not contain NUL';
  if (!isWellFormed(container)) return 'Container name must be valid UTF-8';
  const bytes = Buffer.byteLength(container, 'utf8');
  if (bytes > MAX_CONTAINER_NAME_BYTES) {
    return `Container name length of ${bytes} longer than ${MAX_CONTAINER_NAME_BYTES}`;
  }
  return null;
}

export function isValidAccountName(account: string): boolean {
  return ACCOUNT_NAME.test(account);
}

/** Lone surrogates cannot be stored as UTF-8 (Node 20 has no String#isWellFormed). */
function isWellFormed(value: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

export function containerDirectory(root: string, account: string, container: string): string {
  return path.join(root, account, encodeSegment(container));
}

/** The object file of a key (names must have passed invalidObjectName first). */
export function objectFilePath(containerDir: string, key: string): string {
  const segments = key.split('/');
  const last = segments.pop() ?? '';
  const dirs = segments.map((segment) => encodeSegment(segment) + DIRECTORY_SUFFIX);
  return path.join(containerDir, ...dirs, encodeSegment(last) + OBJECT_SUFFIX);
}

/**
 * The deepest directory that holds every object whose key starts with the prefix: the
 * complete segments of the prefix (the last, partial one only narrows the walk later).
 */
export function prefixDirectory(containerDir: string, keyPrefix: string): string {
  const segments = keyPrefix.split('/');
  segments.pop();
  return path.join(containerDir, ...segments.map((s) => encodeSegment(s) + DIRECTORY_SUFFIX));
}
