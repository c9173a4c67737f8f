import { CLIENT_VERSION_HEADER, sessionExpiryOf } from '@filerunner/protocol';
import type { HttpClient, UploadLedger } from '@filerunner/transfer';
import {
  IndexedDbResumableUploadStore,
  IndexedDbResumeStore,
  WorkerFileHasher,
  XhrHttpClient,
} from '@filerunner/transfer/browser';
import type { UploadPlatform } from './upload-controller';

const API_BASE = '/api';

export interface BrowserUploadOptions {
  /** Called with the session expiry of every API answer the engine gets (see `ApiClient`). */
  onSessionExpires?: (expiresAtMs: number) => void;
}

/**
 * The engine as the page runs it: XHR (for upload progress), slabs joined by the browser's Blob
 * (or packed in memory by the hashing worker when small), ledgers and resumable uploads in
 * IndexedDB, xxh128 in a worker. Nothing opens until the first upload: the database on first
 * use, the worker on the first file hashed.
 */
export function browserUploadPlatform(
  clientVersion: string,
  options: BrowserUploadOptions = {},
): UploadPlatform {
  const xhr = new XhrHttpClient();
  const hasher = new WorkerFileHasher();
  return {
    // The session cookie travels with same-origin calls by itself.
    api: { baseUrl: API_BASE, headers: { [CLIENT_VERSION_HEADER]: clientVersion } },
    ports: {
      http: options.onSessionExpires ? reportingExpiry(xhr, options.onSessionExpires) : xhr,
      joinBlob: (parts) => new Blob(parts),
      resumeStore: new IndexedDbResumeStore<UploadLedger>(),
      hasher,
      // The hashing worker also packs slabs of small files, reading each file once.
      slabPacker: hasher,
    },
    resumable: new IndexedDbResumableUploadStore(),
  };
}

/**
 * The engine's API calls extend the session as much as the page's own: during a long upload
 * they may be the only calls made, so their `Expires` header feeds the countdown too, or the
 * page would sign the person out in the middle of sending.
 */
export function reportingExpiry(
  http: HttpClient,
  onSessionExpires: (expiresAtMs: number) => void,
): HttpClient {
  return {
    async request(request) {
      const response = await http.request(request);
      if (request.url.startsWith(`${API_BASE}/`)) {
        const expiresAt = sessionExpiryOf(response, Date.now());
        if (expiresAt !== null) onSessionExpires(expiresAt);
      }
      return response;
    },
  };
}
