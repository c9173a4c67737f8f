import { browserDownloadRunner } from './browser-download-runner';
import { DownloadController } from './download-controller';

/**
 * The page's download queue. Until the download engine lands, the browser's own download is the
 * one way a download lands; the engine and the folder picker join here as `folder` and
 * `pickFolder`.
 */
export function pageDownloads(): DownloadController {
  return new DownloadController({
    browser: browserDownloadRunner,
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
