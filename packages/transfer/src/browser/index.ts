// The transfer engine's browser entry: the ports implemented with XMLHttpRequest and fetch,
// `File` and `FileSystemFileHandle`, IndexedDB and a hashing worker, plus what a page needs to
// pick files so that an upload can resume after a reload, and a folder to download into.
export { XhrHttpClient } from './xhr-http-client';
export type { XhrHttpClientOptions } from './xhr-http-client';
export { FetchHttpClient } from './fetch-http-client';
export type { FetchHttpClientOptions } from './fetch-http-client';
export { FolderSink, EXTRACT_FILES_IN_FLIGHT } from './folder-sink';
export type { FolderSinkOptions, ExtractFileState, ExtractFileEvent } from './folder-sink';
export { FolderHandleWrittenBytes, browserSha256 } from './written-bytes';
export {
  pickDownloadFolder,
  hasFolderAccess,
  isSystemFolder,
  requestWritePermission,
  DefaultDownloadFolders,
  DownloadFolderError,
  downloadFolderMessages,
} from './download-folder';
export type { DownloadFolderErrorCode } from './download-folder';
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
export {
  IndexedDbResumeStore,
  IndexedDbDownloadResumeStore,
  IndexedDbPickedHandleStore,
} from './indexeddb-stores';
export type { IndexedDbStoreOptions } from './indexeddb-stores';
export { TRANSFER_DATABASE, TransferDatabaseStore } from './transfer-database';
export { IndexedDbResumableUploadStore, reopenPickedFiles } from './resumable-uploads';
export type { ResumableUpload } from './resumable-uploads';
export { matchRepickedFiles, repickProblems } from './repick';
export type { RecordedFile, RepickMatch, RepickProblem } from './repick';
export { WorkerFileHasher, FileHashError } from './worker-file-hasher';
export type { WorkerFileHasherOptions } from './worker-file-hasher';
