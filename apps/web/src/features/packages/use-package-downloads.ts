import { useCallback } from 'react';
import type { FileDownloadGrant, PackageDownloadGrant, PackageFile } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { useAppDispatch } from '../../app/hooks';
import { useToast } from '../../components/toast-context';
import { useHiddenSettings } from '../hidden-settings/hidden-settings';
import { pickDownloadFolder, queueDownload } from '../transfers/download-actions';
import type { DownloadRequest } from '../transfers/download-controller';
import type { DownloadFolder, DownloadMethod, ReceiptCalls } from '../transfers/download-runner';
import { useFolderDownloads } from '../transfers/DownloadControls';
import { fileDescriptor, packageDescriptor } from '../transfers/grant-descriptors';
import type { GrantSource } from '../transfers/kept-downloads';

/** A package the person may download, and how its grants are asked (the caller's API). */
export interface DownloadablePackage {
  slug: string;
  name: string;
  invalidFilenames: boolean;
  packageGrant: () => Promise<PackageDownloadGrant>;
  fileGrant: (file: PackageFile) => Promise<FileDownloadGrant>;
  /**
   * Asks for a signed receipt of the whole package once downloaded into a folder and checked,
   * answering the server's challenge from the files: a recipient's calls (absent for the
   * sender's own downloads).
   */
  receipt?: ReceiptCalls;
  /**
   * Which grant calls those are, so a later page can ask them again for a download cut off
   * (the external page's with the link's key).
   */
  grantsBy: { kind: 'received' } | { kind: 'sent' } | { kind: 'external'; key: string };
  /** What a refusal says when the server gave no reason. */
  failed: string;
}

/**
 * Whether Download All offers the folder choices: the browser can pick a folder, the engine is
 * there, and optimised download (Alt+Shift+P) is on.
 */
export function useFolderChoices(): boolean {
  const folders = useFolderDownloads();
  const { optimizedDownload } = useHiddenSettings();
  return folders && optimizedDownload;
}

/**
 * Downloads of a package through the download queue: Download All the way the person chose,
 * and each file. A folder is picked at the click; the grant is asked when the download starts,
 * so the server decides then whether this person may (PIN, expiry, access), and its refusal is
 * told as before.
 */
export function usePackageDownloads(pkg: DownloadablePackage) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const folderChoices = useFolderChoices();
  const { slug, name, invalidFilenames, failed, grantsBy } = pkg;
  const grantKind = grantsBy.kind;
  const linkKey = grantsBy.kind === 'external' ? grantsBy.key : '';
  const sourceOf = useCallback(
    (userPath: string | null): GrantSource =>
      grantKind === 'external'
        ? { kind: 'external', slug, key: linkKey, userPath }
        : { kind: grantKind, slug, userPath },
    [grantKind, linkKey, slug],
  );

  const refused = useCallback(
    (failure: unknown): never => {
      throw new Error(firstErrorMessage(failure, failed));
    },
    [failed],
  );

  const queue = useCallback(
    (request: DownloadRequest) => {
      const { granted } = dispatch(queueDownload(request));
      granted.catch((error: unknown) => {
        // A download cancelled before its grant was asked was the person's own doing.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        toast({ severity: 'error', message: error instanceof Error ? error.message : failed });
      });
    },
    [dispatch, toast, failed],
  );

  /** The folder for a folder method, picked now (null: the person dismissed the picker). */
  const folderFor = useCallback(
    async (method: DownloadMethod): Promise<DownloadFolder | null | undefined> => {
      if (method === 'browser') return undefined;
      try {
        return await dispatch(pickDownloadFolder());
      } catch (error) {
        toast({ severity: 'error', message: error instanceof Error ? error.message : failed });
        return null;
      }
    },
    [dispatch, toast, failed],
  );

  const downloadAll = useCallback(
    async (method: DownloadMethod) => {
      const folder = await folderFor(method);
      if (folder === null) return;
      const { packageGrant, receipt } = pkg;
      queue({
        receivedPackage: name,
        packageSlug: slug,
        packageFile: null,
        method,
        // Kept for a later folder (Download to new folder): unpacked unless the names forbid it.
        unpackOption:
          method === 'unpack' || (method === 'browser' && !invalidFilenames) ? 'yes' : 'no',
        invalidFilenames,
        folder,
        grant: () => packageGrant().then(packageDescriptor, refused),
        ...(receipt && { receipt }),
        source: sourceOf(null),
      });
    },
    [folderFor, queue, pkg, name, slug, invalidFilenames, refused, sourceOf],
  );

  const downloadFile = useCallback(
    async (file: PackageFile) => {
      // One file lands whole: into a folder where optimised download is on, else the browser's.
      const method: DownloadMethod = folderChoices ? 'tar' : 'browser';
      const folder = await folderFor(method);
      if (folder === null) return;
      const { fileGrant } = pkg;
      queue({
        receivedPackage: name,
        packageSlug: slug,
        packageFile: file.user_path,
        method,
        unpackOption: 'no',
        invalidFilenames,
        folder,
        grant: () => fileGrant(file).then(fileDescriptor, refused),
        source: sourceOf(file.user_path),
      });
    },
    [folderChoices, folderFor, queue, pkg, name, slug, invalidFilenames, refused, sourceOf],
  );

  return { downloadAll, downloadFile, folderChoices };
}
