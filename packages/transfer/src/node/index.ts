// The transfer engine's Node entry (the CLI, the server's tests, scripts): the ports on global
// fetch, files on disk, a JSON ledger file and hash-wasm, plus the platform-neutral core, so a
// Node caller imports everything from here.
import type { HttpClient } from '../core/ports';
import type { UploadPorts } from '../core/upload/runner';
import type { UploadLedger } from '../core/upload/ledger';
import { FetchHttpClient } from './fetch-http-client';
import { JsonFileResumeStore } from './json-file-resume-store';
import { NodeSlabPacker } from './slab-packer';
import { XxhashFileHasher } from './xxhash-file-hasher';

export * from '../index';
export { FetchHttpClient, multipartBlob } from './fetch-http-client';
export { fileSource, walkPaths } from './file-source';
export { FolderSink, PART_SUFFIX, sinkErrorOf, type FolderSinkOptions } from './folder-sink';
export { JsonFileResumeStore } from './json-file-resume-store';
export { keepingSessionCookie, signedInClient } from './signed-in-client';
export { NodeSlabPacker } from './slab-packer';
export { XxhashFileHasher } from './xxhash-file-hasher';
export { DiskWrittenBytes, nodeSha256 } from './written-bytes';

/**
 * The runner's ports for Node: fetch, the platform's Blob for slabs, xxh128 of every file (with
 * small slabs read once for their bytes and hashes), and ledgers in `ledgerFile` when given
 * (without one an interrupted upload starts over).
 */
export function nodeUploadPorts(
  options: { ledgerFile?: string; http?: HttpClient; hash?: boolean } = {},
): UploadPorts {
  return {
    http: options.http ?? new FetchHttpClient(),
    joinBlob: (parts) => new Blob(parts),
    ...(options.ledgerFile
      ? { resumeStore: new JsonFileResumeStore<UploadLedger>(options.ledgerFile) }
      : {}),
    ...(options.hash === false
      ? {}
      : { hasher: new XxhashFileHasher(), slabPacker: new NodeSlabPacker() }),
  };
}
