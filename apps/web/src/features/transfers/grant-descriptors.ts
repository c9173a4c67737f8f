import type { FileDownloadGrant, PackageDownloadGrant } from '@filerunner/protocol';
import type { DownloadDescriptor } from './download-runner';

/** What the engine needs of a package's grant: its URL, name, size and the tar's members. */
export function packageDescriptor(grant: PackageDownloadGrant): DownloadDescriptor {
  return {
    downloadUrl: grant.download_url,
    filename: grant.filename,
    size: grant.size,
    tar: { mtime: grant.mtime, files: grant.files },
  };
}

/** What the engine needs of one file's grant. */
export function fileDescriptor(grant: FileDownloadGrant): DownloadDescriptor {
  return { downloadUrl: grant.download_url, filename: grant.filename, size: grant.size };
}
