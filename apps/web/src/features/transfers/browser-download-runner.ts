import { startBrowserDownload } from '../packages/browser-download';
import type { DownloadRunner } from './download-runner';

/**
 * The standard browser download as a runner: the granted URL handed to the browser, which
 * saves it where it saves everything. Once handed over the queue's part is done; the browser's
 * own download list shows the rest.
 */
export const browserDownloadRunner: DownloadRunner = ({ descriptor }) => {
  startBrowserDownload(descriptor.downloadUrl, descriptor.filename);
  return Promise.resolve({
    verifiedFiles: 0,
    unverifiedFiles: [],
    failedFiles: [],
    fetchedBytes: 0,
  });
};
