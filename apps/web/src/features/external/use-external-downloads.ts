import type { ExternalPackage } from '@filerunner/protocol';
import { usePackageDownloads } from '../packages/use-package-downloads';
import {
  useExternalDeliveryReceiptMutation,
  useExternalFileGrantMutation,
  useExternalPackageGrantMutation,
  useExternalReceiptChallengeMutation,
} from './external-api';

export const downloadFailed = 'Sorry, we could not start that download. Please try again.';

/**
 * Downloads from the external page, through the page's download queue: each grant asked by the
 * link's key when its download starts. The server decides again whether the key may download
 * (expired, locked, removed); its reason is what the person reads.
 */
export function useExternalDownloads(pkg: ExternalPackage, accessKey: string) {
  const [packageGrant, packageGranting] = useExternalPackageGrantMutation();
  const [fileGrant, fileGranting] = useExternalFileGrantMutation();
  const [receiptChallenge] = useExternalReceiptChallengeMutation();
  const [deliveryReceipt] = useExternalDeliveryReceiptMutation();
  const downloads = usePackageDownloads({
    slug: pkg.slug,
    name: pkg.name,
    invalidFilenames: pkg.invalid_filenames,
    packageGrant: () =>
      packageGrant({ params: { slug: pkg.slug }, query: { key: accessKey } }).unwrap(),
    fileGrant: (file) =>
      fileGrant({
        params: { slug: pkg.slug, '*': file.user_path },
        query: { key: accessKey },
      }).unwrap(),
    receipt: {
      challenge: () =>
        receiptChallenge({ params: { slug: pkg.slug }, query: { key: accessKey } }).unwrap(),
      issue: (body) =>
        deliveryReceipt({ params: { slug: pkg.slug }, query: { key: accessKey }, body }).unwrap(),
    },
    grantsBy: { kind: 'external', key: accessKey },
    failed: downloadFailed,
  });
  return { ...downloads, busy: packageGranting.isLoading || fileGranting.isLoading };
}
