import type {
  DeliveryReceipt,
  DownloadHistory,
  DownloadHistoryEntry,
  DownloadVerification,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { recipientDownload } from '../downloads/downloads.repository';
import { heldTar } from '../downloads/downloads.service';
import { sentBy } from '../inbox/inbox.policy';
import { receiptsOf } from '../receipts/receipts.repository';
import { receiptView } from '../receipts/receipts.service';
import { entriesCovered, parseServedRanges } from '../receipts/tar-coverage';
import { downloadsOf, recipientsOf } from './download-history.repository';

type DownloadRecord = Awaited<ReturnType<typeof downloadsOf>>[number];
type StoredReceipt = Awaited<ReturnType<typeof receiptsOf>>[number];

/**
 * A sent package's download history for its sender (nobody else: a recipient or another user
 * gets the package's 404): per recipient, each download with the files it delivered whole and
 * what the recipient's engine reported of its check, from the signed receipt it asked for.
 */
export async function downloadHistoryOf(
  ctx: AppContext,
  principal: Principal,
  slug: string,
): Promise<DownloadHistory> {
  const { pkg } = await sentBy(ctx.db, principal, slug);
  const [{ tar }, recipients, records, receipts] = await Promise.all([
    heldTar(ctx, pkg),
    recipientsOf(ctx.db, pkg.id),
    downloadsOf(ctx.db, pkg.id),
    receiptsOf(ctx.db, pkg.id),
  ]);
  // The layout the downloads were served from, so a range maps to the same files.
  const fileCount = tar.files.length;
  const indexOfFile = new Map(tar.files.map((f, i) => [f.id, i]));
  const receiptOf = receiptsByDownload(records, receipts);

  const entry = (record: DownloadRecord): DownloadHistoryEntry => {
    let covered: boolean[];
    if (record.fileId === null) {
      covered = entriesCovered(parseServedRanges(record.servedRanges), tar.layout, fileCount);
    } else {
      // One file's own URL: it is delivered once the download wrote its last byte.
      const index = indexOfFile.get(record.fileId);
      covered = tar.files.map((_, i) => i === index && record.completedAt !== null);
    }
    const indexes = covered.flatMap((yes, i) => (yes ? [i] : []));
    const stored = receiptOf.get(record.id) ?? null;
    const receipt = stored ? receiptView(stored.receipt, stored.email) : null;
    // Complete once every file arrived whole: an engine unpacking the tar skips its framing.
    const everyFile = record.fileId === null && indexes.length === fileCount;
    return {
      ...recipientDownload({ ...record, completed: record.completedAt !== null || everyFile }),
      kind: record.fileId === null ? 'package' : 'file',
      files_covered: indexes.length,
      covered: indexes.length === fileCount ? null : indexes,
      verification: verificationOf(receipt),
      receipt,
    };
  };

  return {
    files: tar.files.map((f) => f.userPath),
    recipients: recipients.map((r) => ({
      id: r.userId ?? -r.id,
      email: r.email,
      downloads: records.filter((d) => d.recipientId === r.id).map(entry),
    })),
  };
}

/** What a receipt says of the engine's check; without one, nothing was reported. */
function verificationOf(receipt: DeliveryReceipt | null): DownloadVerification {
  if (!receipt) return 'unverified';
  if (receipt.failed > 0) return 'failed';
  return receipt.unverified > 0 ? 'unverified' : 'verified';
}

/**
 * The newest receipt of each download. A receipt names the download that finished the
 * delivery; one issued before receipts named it goes with its recipient's last package
 * download that had started by then.
 */
function receiptsByDownload(
  records: readonly DownloadRecord[],
  receipts: readonly StoredReceipt[],
): Map<number, StoredReceipt> {
  const out = new Map<number, StoredReceipt>();
  // Oldest first, so a newer receipt of the same download replaces an older one.
  for (const stored of [...receipts].reverse()) {
    const { receipt } = stored;
    const downloadId =
      receipt.downloadId ??
      records.findLast(
        (d) =>
          d.recipientId === receipt.recipientId &&
          d.fileId === null &&
          d.firstByteAt <= receipt.createdAt,
      )?.id;
    if (downloadId !== undefined) out.set(downloadId, stored);
  }
  return out;
}
