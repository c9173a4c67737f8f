import type { ApiClient } from '../../app/api-client';
import { browserDownloadRunner } from './browser-download-runner';
import { DownloadController } from './download-controller';
import { folderDownloadRunner, pickDownloadFolderHandle } from './folder-download-runner';
import { grantFrom, IndexedDbDownloadKeeper, receiptFrom } from './kept-downloads';

/**
 * The page's download queue: the browser's own download everywhere, and where the browser can
 * pick a folder, the download engine into it (unpacked or as the `.tar`). Folder downloads are
 * kept in IndexedDB while they run, so a later page offers one cut off again (`restore`).
 */
export function pageDownloads(api: ApiClient): DownloadController {
  return new DownloadController({
    browser: browserDownloadRunner,
    folder: folderDownloadRunner,
    pickFolder: pickDownloadFolderHandle,
    // Read when a download starts, so sliders moved since apply; the settings load only then.
    options: async () => {
      const hidden = await import('../hidden-settings/hidden-settings');
      return hidden.downloadOptionsOf(hidden.getHiddenSettings());
    },
    keeper: hasFolderPicker() ? new IndexedDbDownloadKeeper() : undefined,
    regrant: (source) => grantFrom(api, source),
    receiptOf: (source) => receiptFrom(api, source),
    allowFolder: async (folder) => {
      const { requestWritePermission } = await import('@filerunner/transfer/browser');
      return requestWritePermission(folder.handle as FileSystemDirectoryHandle);
    },
  });
}

/** Whether this browser can pick a folder (Chromium); Firefox and Safari cannot. */
export const hasFolderPicker = () =>
  typeof window !== 'undefined' && 'showDirectoryPicker' in window;
