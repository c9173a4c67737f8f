import { browserDownloadRunner } from './browser-download-runner';
import { DownloadController } from './download-controller';
import { folderDownloadRunner, pickDownloadFolderHandle } from './folder-download-runner';

/**
 * The page's download queue: the browser's own download everywhere, and where the browser can
 * pick a folder, the download engine into it (unpacked or as the `.tar`).
 */
export function pageDownloads(): DownloadController {
  return new DownloadController({
    browser: browserDownloadRunner,
    folder: folderDownloadRunner,
    pickFolder: pickDownloadFolderHandle,
    // Read when a download starts, so sliders moved since apply; the settings load only then.
    options: async () => {
      const hidden = await import('../hidden-settings/hidden-settings');
      return hidden.downloadOptionsOf(hidden.getHiddenSettings());
    },
  });
}

/** Whether this browser can pick a folder (Chromium); Firefox and Safari cannot. */
export const hasFolderPicker = () =>
  typeof window !== 'undefined' && 'showDirectoryPicker' in window;
