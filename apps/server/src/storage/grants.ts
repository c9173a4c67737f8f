import { encodeKeyForUrl, formPostMessage, sign, tempUrlMessage } from './signing';
import type {
  FormPostGrant,
  FormPostRequest,
  SignedTempUrl,
  TempUrlRequest,
} from './storage-driver';

/** What both drivers sign grants with: the same Swift scheme, different account URLs. */
export interface GrantSigner {
  /** e.g. `https://storage.example/v1/AUTH_x`; its path is what signatures cover. */
  readonly accountUrl: string;
  readonly alternativeAccountUrls: readonly string[];
  readonly tempUrlKey: string;
}

/** The decoded path of an account URL, e.g. `/v1/AUTH_x`, as Swift's PATH_INFO shows it. */
export function accountPathOf(accountUrl: string): string {
  return decodeURIComponent(new URL(accountUrl).pathname).replace(/\/+$/, '');
}

function objectUrls(signer: GrantSigner, container: string, key: string): [string, string[]] {
  const tail = `/${encodeURIComponent(container)}/${encodeKeyForUrl(key)}`;
  return [signer.accountUrl + tail, signer.alternativeAccountUrls.map((base) => base + tail)];
}

function assertExpires(expires: number): void {
  if (!Number.isSafeInteger(expires) || expires <= 0) {
    throw new RangeError(`expires must be a Unix time in whole seconds, got ${expires}`);
  }
}

export function signTempUrlGrant(signer: GrantSigner, request: TempUrlRequest): SignedTempUrl {
  assertExpires(request.expires);
  const objectPath = `${accountPathOf(signer.accountUrl)}/${request.container}/${request.key}`;
  const signedPath = request.prefixScope ? `prefix:${objectPath}` : objectPath;
  const signature = sign(
    signer.tempUrlKey,
    tempUrlMessage(request.method, request.expires, signedPath),
    request.digest,
  );
  const query = new URLSearchParams({
    temp_url_sig: signature,
    temp_url_expires: String(request.expires),
  });
  if (request.prefixScope) query.set('temp_url_prefix', request.key);
  if (request.filename !== undefined) query.set('filename', request.filename);
  const queryString = query.toString();
  const [url, alternatives] = objectUrls(signer, request.container, request.key);
  return {
    url: `${url}?${queryString}`,
    alternativeUrls: alternatives.map((alt) => `${alt}?${queryString}`),
    query: queryString,
    signature,
    expires: request.expires,
    signedPath,
  };
}

export function signFormPostGrant(signer: GrantSigner, request: FormPostRequest): FormPostGrant {
  assertExpires(request.expires);
  for (const [name, value] of [
    ['maxFileSize', request.maxFileSize],
    ['maxFileCount', request.maxFileCount],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
    }
  }
  const redirect = request.redirect ?? '';
  const path = `${accountPathOf(signer.accountUrl)}/${request.container}/${request.keyPrefix}`;
  const fields = {
    redirect,
    max_file_size: String(request.maxFileSize),
    max_file_count: String(request.maxFileCount),
    expires: String(request.expires),
    signature: '',
  };
  fields.signature = sign(
    signer.tempUrlKey,
    formPostMessage(path, redirect, fields.max_file_size, fields.max_file_count, fields.expires),
    request.digest,
  );
  const [url, alternativeUrls] = objectUrls(signer, request.container, request.keyPrefix);
  return {
    url,
    alternativeUrls,
    redirect,
    maxFileSize: request.maxFileSize,
    maxFileCount: request.maxFileCount,
    expires: request.expires,
    signature: fields.signature,
    fields,
  };
}
