import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh unguessable token (session, activation, reset, API key): 256 bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The form in which a token is stored. Tokens carry 256 bits of entropy, so a plain SHA-256 is
 * enough (no salt or stretching needed, unlike passwords) and lets us look rows up by it.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
