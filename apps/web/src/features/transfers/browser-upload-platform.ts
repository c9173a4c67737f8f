import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import type { UploadLedger } from '@filerunner/transfer';
import {
  IndexedDbPickedHandleStore,
  IndexedDbResumeStore,
  WorkerFileHasher,
  XhrHttpClient,
} from '@filerunner/transfer/browser';
import type { UploadPlatform } from './upload-controller';

/**
 * The engine as the page runs it: XHR (for upload progress), slabs joined by the browser's Blob,
 * ledgers and picked handles in IndexedDB, xxh128 in a worker. Nothing opens until the first
 * upload: the database on first use, the worker on the first file hashed.
 */
export function browserUploadPlatform(clientVersion: string): UploadPlatform {
  return {
    // The session cookie travels with same-origin calls by itself.
    api: { baseUrl: '/api', headers: { [CLIENT_VERSION_HEADER]: clientVersion } },
    ports: {
      http: new XhrHttpClient(),
      joinBlob: (parts) => new Blob(parts),
      resumeStore: new IndexedDbResumeStore<UploadLedger>(),
      hasher: new WorkerFileHasher(),
    },
    handles: new IndexedDbPickedHandleStore(),
  };
}
