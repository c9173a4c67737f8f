import { DownloadSinkError } from '../core/download/ports';

/**
 * What went wrong when the File System Access API refused something, in the download's words.
 * Browsers answer with DOMExceptions named by the File System standard, and with a TypeError for
 * a name that cannot exist in a folder ('..', a '/' or '\\' in it, or what the disk forbids).
 *
 * `folderGone` says whether the picked folder itself can no longer be reached (checked by the
 * caller, see `folderIsGone`): a NotFoundError then means the whole download cannot continue,
 * while otherwise it concerns the one file (removed by someone while it was being written).
 */
export function folderErrorOf(error: unknown, path: string, folderGone: boolean): unknown {
  if (error instanceof DownloadSinkError) return error;
  if (error instanceof TypeError) {
    return new DownloadSinkError('name', `${path}: the folder does not accept this name`, false, {
      cause: error,
    });
  }
  const name = error instanceof Error || isDomException(error) ? error.name : '';
  switch (name) {
    case 'AbortError':
      return error;
    case 'QuotaExceededError':
      return new DownloadSinkError('quota_exceeded', 'There is not enough space left', true, {
        cause: error,
      });
    case 'NotAllowedError':
    case 'SecurityError':
      return new DownloadSinkError('write', 'Writing to the folder is not allowed', true, {
        cause: error,
      });
    case 'NotFoundError':
    case 'InvalidStateError':
      if (folderGone) {
        return new DownloadSinkError(
          'directory_handle_invalid',
          'The folder can no longer be reached',
          true,
          { cause: error },
        );
      }
      return new DownloadSinkError('write', `${path}: the file was removed while written`, false, {
        cause: error,
      });
    case 'NoModificationAllowedError':
    case 'InvalidModificationError':
      return new DownloadSinkError('write', `${path}: the file cannot be written`, false, {
        cause: error,
      });
    default:
      return new DownloadSinkError('other', `${path}: ${String(error)}`, false, { cause: error });
  }
}

/** Whether the folder picked for a download has been removed, moved away or revoked. */
export async function folderIsGone(folder: FileSystemDirectoryHandle): Promise<boolean> {
  try {
    // Listing is the one call that reaches the folder itself without creating anything in it.
    for await (const _ of folder.keys()) break;
    return false;
  } catch {
    return true;
  }
}

function isDomException(error: unknown): error is DOMException {
  return typeof DOMException !== 'undefined' && error instanceof DOMException;
}
