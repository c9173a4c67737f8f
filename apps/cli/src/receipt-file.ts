import { createPublicKey, verify } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  RESERVED_DEVICE_NAME,
  type ReceiptClaims,
  type ReceiptPublicKey,
} from '@filerunner/protocol';

/** Why a receipt the server sent was not saved: said to the person as it is. */
export class ReceiptRejectedError extends Error {
  override readonly name = 'ReceiptRejectedError';
}

/**
 * A name for one file or folder directly inside a folder, built from a name the server sent:
 * no folder separator, no leading dot (so neither `..` nor a hidden file such as `.ssh`), no
 * character a common file system refuses, never a device name. The server's name is only its
 * raw material.
 */
export function safeEntryName(raw: string): string {
  let base = [...raw]
    .map((c) => (c < ' ' || c === '\u007f' ? '_' : c))
    .join('')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  if (RESERVED_DEVICE_NAME.test(base)) base = `_${base}`;
  return base || 'package';
}

/** The receipt's file name, `<package>.receipt.jws`, made safe by `safeEntryName`. */
export function receiptFileName(packageFilename: string, copy = 1): string {
  const base = safeEntryName(packageFilename.replace(/\.tar$/i, ''));
  return `${base}.receipt${copy > 1 ? `-${copy}` : ''}.jws`;
}

/**
 * The claims of a compact JWS receipt, once its Ed25519 signature verifies against the server's
 * published key and it is a receipt of package `slug`.
 * @throws ReceiptRejectedError saying why not.
 */
export function verifiedReceipt(jws: string, key: ReceiptPublicKey, slug: string): ReceiptClaims {
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) {
    throw new ReceiptRejectedError('it is not a compact JWS');
  }
  const [header, payload, signature] = parts as [string, string, string];
  let protectedHeader: { alg?: unknown; kid?: unknown };
  let claims: ReceiptClaims;
  try {
    protectedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new ReceiptRejectedError('it is not a compact JWS');
  }
  if (protectedHeader.alg !== 'EdDSA' || protectedHeader.kid !== key.kid) {
    throw new ReceiptRejectedError("it is not signed with the server's published key");
  }
  const signed = Buffer.from(`${header}.${payload}`);
  const valid = verify(null, signed, createPublicKey(key.pem), Buffer.from(signature, 'base64url'));
  if (!valid) {
    throw new ReceiptRejectedError("its signature does not verify with the server's published key");
  }
  if (claims?.package?.slug !== slug) {
    throw new ReceiptRejectedError('it is a receipt of another package');
  }
  return claims;
}

/**
 * Saves a verified receipt into `folder` under `receiptFileName`, as a new file: never over one
 * already there (the next free `.receipt-N.jws` instead), never through a link planted in its
 * place, never outside the folder. Answers the file's path.
 */
export async function saveReceiptFile(
  folder: string,
  packageFilename: string,
  jws: string,
): Promise<string> {
  const root = path.resolve(folder);
  for (let copy = 1; ; copy++) {
    const file = path.resolve(root, receiptFileName(packageFilename, copy));
    if (path.dirname(file) !== root) throw new ReceiptRejectedError('its name leaves the folder');
    try {
      // 'wx' creates the file or fails: an existing file or symlink there is left alone.
      await writeFile(file, `${jws}\n`, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || copy === 100) throw error;
    }
  }
}
