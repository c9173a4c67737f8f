import type { DownloadRecord, DownloadStatus } from '../downloads-slice';

/**
 * A download record as the queue keeps it: package `Package <id>`, unpacked into the folder
 * Dailies, nothing received yet, unless `changes` say otherwise.
 */
export function downloadOf(
  id: string,
  status: DownloadStatus,
  changes: Partial<DownloadRecord> = {},
): DownloadRecord {
  return {
    identifier: id,
    receivedPackage: `Package ${id}`,
    packageSlug: `pkg-${id}`,
    download: { filename: `Package ${id}.tar`, size: 3000 },
    rootFolder: 'Dailies',
    packageFile: null,
    unpackOption: 'yes',
    detarFile: true,
    method: 'unpack',
    invalidFilenames: false,
    percentComplete: 0,
    status,
    retryCount: 0,
    progress: null,
    failedFiles: [],
    error: null,
    receipted: false,
    ...changes,
  };
}
