import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureDigest } from './storage-driver';

/**
 * Swift's TempURL and FormPost signatures (swift/common/digest.py, middleware/tempurl.py and
 * formpost.py), shared by both drivers and by the embedded store's verifier, so a URL signed
 * for one is accepted by the other.
 */

/** What a TempURL signature covers: `METHOD\nexpires\npath` (path decoded, `prefix:` for prefix grants). */
export function tempUrlMessage(method: string, expires: number, signedPath: string): string {
  return `${method}\n${expires}\n${signedPath}`;
}

/** What a FormPost signature covers: `path\nredirect\nmax_file_size\nmax_file_count\nexpires`. */
export function formPostMessage(
  path: string,
  redirect: string,
  maxFileSize: string,
  maxFileCount: string,
  expires: string,
): string {
  return `${path}\n${redirect}\n${maxFileSize}\n${maxFileCount}\n${expires}`;
}

/**
 * The signature as clients send it. sha1 and sha256 as hex (what Swift's docs and most
 * clients use); sha512 as `sha512:<base64url>` like `swift tempurl`, because 128 hex
 * characters make URLs needlessly long.
 */
export function sign(key: string, message: string, digest: SignatureDigest = 'sha256'): string {
  const mac = createHmac(digest, key).update(message, 'utf8');
  if (digest === 'sha512') return `sha512:${mac.digest('base64url')}`;
  return mac.digest('hex');
}

const HEX_DIGEST_BY_LENGTH: Readonly<Record<number, SignatureDigest>> = {
  40: 'sha1',
  64: 'sha256',
  128: 'sha512',
};

const DIGEST_BYTES: Readonly<Record<SignatureDigest, number>> = {
  sha1: 20,
  sha256: 32,
  sha512: 64,
};

/**
 * Reads a client's signature the way Swift's extract_digest_and_algorithm does: bare hex (the
 * digest follows from the length) or `<digest>:<base64>` (standard or URL-safe alphabet).
 * Returns null for anything else.
 */
export function parseSignature(value: string): { digest: SignatureDigest; bytes: Buffer } | null {
  const colon = value.indexOf(':');
  if (colon >= 0) {
    const name = value.slice(0, colon);
    if (name !== 'sha1' && name !== 'sha256' && name !== 'sha512') return null;
    const encoded = value.slice(colon + 1);
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(encoded)) return null;
    const bytes = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === DIGEST_BYTES[name] ? { digest: name, bytes } : null;
  }
  const digest = HEX_DIGEST_BY_LENGTH[value.length];
  if (!digest || !/^[0-9a-fA-F]*$/.test(value)) return null;
  return { digest, bytes: Buffer.from(value, 'hex') };
}

/** Constant-time check of a client's signature over `message` with any of the keys. */
export function verifySignature(
  signature: string,
  message: string,
  keys: readonly string[],
  allowedDigests: readonly SignatureDigest[] = ['sha1', 'sha256', 'sha512'],
): boolean {
  const parsed = parseSignature(signature);
  if (!parsed || !allowedDigests.includes(parsed.digest)) return false;
  let valid = false;
  for (const key of keys) {
    const expected = createHmac(parsed.digest, key).update(message, 'utf8').digest();
    // No early exit: every key is tried so timing does not reveal which one matched.
    if (expected.length === parsed.bytes.length && timingSafeEqual(expected, parsed.bytes)) {
      valid = true;
    }
  }
  return valid;
}

/** Percent-encodes a key for a URL path, keeping '/' so the path mirrors the key. */
export function encodeKeyForUrl(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
