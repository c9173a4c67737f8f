import { useCallback } from 'react';
import type { PackageFile } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { useToast } from '../../components/toast-context';
import { startBrowserDownload } from '../packages/browser-download';
import { useExternalFileGrantMutation, useExternalPackageGrantMutation } from './external-api';

export const downloadFailed = 'Sorry, we could not start that download. Please try again.';

/**
 * Downloads from the external page: a grant by the link's key at the moment of the click, then
 * the browser's own download of the granted URL. The server decides again whether the key may
 * download (expired, locked, removed); its reason is what the person reads.
 */
export function useExternalDownloads(slug: string, accessKey: string) {
  const [packageGrant, packageGranting] = useExternalPackageGrantMutation();
  const [fileGrant, fileGranting] = useExternalFileGrantMutation();
  const toast = useToast();

  const downloadAll = useCallback(async () => {
    try {
      const grant = await packageGrant({ params: { slug }, query: { key: accessKey } }).unwrap();
      startBrowserDownload(grant.download_url, grant.filename);
    } catch (error) {
      toast({ severity: 'error', message: firstErrorMessage(error, downloadFailed) });
    }
  }, [packageGrant, slug, accessKey, toast]);

  const downloadFile = useCallback(
    async (file: PackageFile) => {
      try {
        const grant = await fileGrant({
          params: { slug, '*': file.user_path },
          query: { key: accessKey },
        }).unwrap();
        startBrowserDownload(grant.download_url, grant.filename);
      } catch (error) {
        toast({ severity: 'error', message: firstErrorMessage(error, downloadFailed) });
      }
    },
    [fileGrant, slug, accessKey, toast],
  );

  return {
    downloadAll,
    downloadFile,
    busy: packageGranting.isLoading || fileGranting.isLoading,
  };
}
