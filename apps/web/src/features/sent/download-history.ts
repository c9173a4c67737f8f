import type { DownloadHistoryEntry, DownloadVerification } from '@filerunner/protocol';

/** What the recipient's engine reported of its check, in the history's words. */
export const verificationLabel: Record<DownloadVerification, string> = {
  verified: 'Verified',
  unverified: 'Not verified',
  failed: 'Failed verification',
};

/** Which files a download delivered: all of them, or how many of how many. */
export function coverageLabel(
  entry: Pick<DownloadHistoryEntry, 'files_covered' | 'covered'>,
  total: number,
): string {
  if (entry.covered === null) return 'All files';
  return `${entry.files_covered} of ${total} ${total === 1 ? 'file' : 'files'}`;
}

/** The paths a download delivered, from the history's file list. */
export function coveredPaths(
  entry: Pick<DownloadHistoryEntry, 'covered'>,
  files: readonly string[],
): readonly string[] {
  return entry.covered === null ? files : entry.covered.map((i) => files[i] ?? '');
}

/**
 * A receipt as a file to save: the compact JWS as it was signed, named after the package and
 * the receipt (the CLI saves its own copy as `<package>.receipt.jws`).
 */
export function receiptFile(packageName: string, receiptId: number, jws: string) {
  const printable = [...packageName].filter((c) => c >= ' ').join('');
  const base = printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'package';
  return {
    name: `${base}.receipt-${receiptId}.jws`,
    href: `data:application/jose;charset=utf-8,${encodeURIComponent(jws)}`,
  };
}
