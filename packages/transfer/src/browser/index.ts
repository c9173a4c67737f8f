// The transfer engine's browser entry: the ports implemented with XMLHttpRequest, `File` and
// `FileSystemFileHandle`, IndexedDB and a hashing worker, plus what a page needs to pick files
// so that an upload can resume after a reload.
export { XhrHttpClient } from './xhr-http-client';
export type { XhrHttpClientOptions } from './xhr-http-client';
export { formDataOf } from './form-data';
export {
  FileSource,
  FileHandleSource,
  sourcesFromFileList,
  sourcesFromDirectoryHandle,
} from './file-sources';
export type { PickedSource } from './file-sources';
export { sourcesFromDrop } from './dropped-files';
export type { DroppedFiles } from './dropped-files';
export {
  sourcesFromPickedHandles,
  queryReadPermission,
  requestReadPermission,
  canPickHandles,
  pickFiles,
  pickFolder,
} from './picked-handles';
export type { PickedHandle, PickedWithHandles } from './picked-handles';
export { IndexedDbResumeStore, IndexedDbPickedHandleStore } from './indexeddb-stores';
export type { IndexedDbStoreOptions } from './indexeddb-stores';
export { TRANSFER_DATABASE } from './transfer-database';
export { IndexedDbResumableUploadStore, reopenPickedFiles } from './resumable-uploads';
export type { ResumableUpload } from './resumable-uploads';
export { matchRepickedFiles, repickProblems } from './repick';
export type { RecordedFile, RepickMatch, RepickProblem } from './repick';
export { WorkerFileHasher, FileHashError } from './worker-file-hasher';
export type { WorkerFileHasherOptions } from './worker-file-hasher';
