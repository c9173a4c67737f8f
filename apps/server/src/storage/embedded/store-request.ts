import type { SignatureDigest } from '../storage-driver';
import { tempUrlMessage, verifySignature } from '../signing';

/** A request path `/v1/<account>/<container>/<key>` split the way Swift's split_path does. */
export interface StoreTarget {
  readonly account: string;
  readonly container: string;
  /** '' for a request to the container itself. */
  readonly key: string;
  /** The decoded path, as signatures cover it. */
  readonly path: string;
}

/**
 * Parses a raw request URL. The path is percent-decoded as a whole before splitting, like
 * WSGI's PATH_INFO, so signatures are checked over the same decoded string Swift uses.
 * Returns null for paths outside `/v1/<account>/<container>`.
 */
export function parseStoreUrl(
  rawUrl: string,
): { target: StoreTarget; query: URLSearchParams } | null {
  const questionMark = rawUrl.indexOf('?');
  const rawPath = questionMark < 0 ? rawUrl : rawUrl.slice(0, questionMark);
  const query = new URLSearchParams(questionMark < 0 ? '' : rawUrl.slice(questionMark + 1));
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  const parts = path.split('/');
  if (parts[0] !== '' || parts[1] !== 'v1' || !parts[2] || !parts[3]) return null;
  return {
    target: { account: parts[2], container: parts[3], key: parts.slice(4).join('/'), path },
    query,
  };
}

export type TempUrlVerdict =
  | { readonly valid: true; readonly expires: number; readonly filename?: string }
  | { readonly valid: false };

/** Swift's `temp_url_expires`: Unix seconds, or ISO 8601 `YYYY-MM-DDThh:mm:ssZ`. */
function parseExpires(value: string): number {
  if (/^-?\d+$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
  }
  return 0;
}

/**
 * Checks a TempURL the way Swift's tempurl middleware does: signature over the method,
 * expiry and decoded path (or `prefix:` path with temp_url_prefix), any allowed digest, and
 * a HEAD accepted with a signature for HEAD, GET, POST or PUT. IP-restricted URLs are
 * refused because the embedded store does not check client addresses.
 */
export function verifyTempUrl(
  method: string,
  target: StoreTarget,
  query: URLSearchParams,
  keys: readonly string[],
  allowedDigests: readonly SignatureDigest[],
): TempUrlVerdict {
  const signature = query.get('temp_url_sig');
  const expiresText = query.get('temp_url_expires');
  if (!signature || !expiresText || query.has('temp_url_ip_range')) return { valid: false };
  const expires = parseExpires(expiresText);
  if (expires < Date.now() / 1000) return { valid: false };
  if (target.key.replace(/\/+/g, '') === '') return { valid: false };
  const prefix = query.get('temp_url_prefix');
  const objectPath = `/v1/${target.account}/${target.container}/`;
  let signedPath = target.path;
  if (prefix !== null) {
    if (!target.key.startsWith(prefix)) return { valid: false };
    signedPath = `prefix:${objectPath}${prefix}`;
  }
  const methods = method === 'HEAD' ? ['HEAD', 'GET', 'POST', 'PUT'] : [method];
  const valid = methods.some((m) =>
    verifySignature(signature, tempUrlMessage(m, expires, signedPath), keys, allowedDigests),
  );
  if (!valid) return { valid: false };
  const filename = query.get('filename') ?? undefined;
  // Swift's `inline` is not read: the embedded store serves objects only as attachments.
  return { valid: true, expires, ...(filename ? { filename } : {}) };
}

/** Swift's disposition_format for an attachment: `attachment; filename="..."; filename*=UTF-8''...`. */
export function contentDisposition(filename: string): string {
  const quoted = encodeURIComponent(filename).replace(/%20/g, ' ').replace(/%2F/gi, '/');
  return `attachment; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
