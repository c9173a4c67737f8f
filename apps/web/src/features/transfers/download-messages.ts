import type { DownloadErrorKind } from './download-runner';

/** The ways a failed download's message offers out of it, beside the status's own actions. */
export type DownloadErrorAction =
  'changeFolder' | 'help' | 'downloadAsTar' | 'browserDownload' | 'replaceFiles';

export interface DownloadErrorText {
  /** The error class the spec names it by. */
  name: string;
  message: string;
  severity: 'error' | 'warning';
  actions: DownloadErrorAction[];
}

/** The words of the one error class not tied to the folder: anything else that went wrong. */
const generic: DownloadErrorText = {
  name: 'DownloadError',
  message:
    'An issue occurred while optimising your download. Please use Standard browser download instead.',
  severity: 'error',
  actions: ['help', 'browserDownload'],
};

/**
 * What a failed download says, by what failed: the folder's errors offer another folder, a name
 * the folder cannot hold offers the `.tar` (a package) or the browser's download (one file).
 */
export function downloadErrorText(
  kind: DownloadErrorKind,
  of: { singleFile: boolean },
): DownloadErrorText {
  switch (kind) {
    case 'write':
      return {
        name: 'DownloadWriteError',
        message: 'Unable to download to the selected folder. Please try a different location.',
        severity: 'error',
        actions: ['changeFolder'],
      };
    case 'occupied':
      return {
        name: 'DownloadFolderOccupiedError',
        message:
          'This folder already has files with the same names as the package’s. Nothing was downloaded. Replace them, or download to a new folder.',
        severity: 'warning',
        actions: ['replaceFiles', 'changeFolder'],
      };
    case 'quota_exceeded':
      return {
        name: 'DownloadQuotaExceededError',
        message:
          'There is not enough disk space to download to the selected folder. Please free up some space or choose another folder.',
        severity: 'error',
        actions: ['changeFolder'],
      };
    case 'name':
      return of.singleFile
        ? {
            name: 'DownloadNameError',
            message:
              'This file failed to download because its name contains forbidden characters. Please download it again as a Standard browser download.',
            severity: 'warning',
            actions: ['help', 'browserDownload'],
          }
        : {
            name: 'DownloadNameError',
            message:
              'Some files failed to download because their names contain forbidden characters. Please download the package again as a .tar file.',
            severity: 'warning',
            actions: ['help', 'downloadAsTar'],
          };
    case 'directory_handle_invalid':
      return {
        name: 'DirectoryHandleInvalidError',
        message: 'The selected folder is no longer accessible. Please choose a valid folder.',
        severity: 'error',
        actions: ['changeFolder'],
      };
    case 'verification':
      return {
        name: 'DownloadVerificationError',
        message:
          'Some files did not arrive as they were sent: their contents do not match the sender’s. Please download them again.',
        severity: 'error',
        actions: [],
      };
    default:
      return generic;
  }
}

/** A partial failure: some files arrived, these did not. */
export function partialFailureText(failed: number): string {
  return failed === 1
    ? '1 file failed to download. The other files are in the folder.'
    : `${failed.toLocaleString('en-US')} files failed to download. The other files are in the folder.`;
}

/**
 * The folder already holds files of the package's names that this download did not create:
 * `names` shows a few of them (and how many more), `count` is how many there are.
 */
export function folderOccupiedText(names: string, count: number): string {
  const these = count === 1 ? 'a file' : `${count.toLocaleString('en-US')} files`;
  return `This folder already has ${these} with the same name as the package’s: ${names}. Nothing was downloaded. Replace ${count === 1 ? 'it' : 'them'}, or download to a new folder.`;
}
