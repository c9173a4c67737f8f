import {
  systemClock,
  type Clock,
  type DeliveryReceipt,
  type ReceiptRequest,
} from '@filerunner/protocol';
import type { DownloadOutcome } from './ports';

/** What the engine found when it checked the package's files, as a receipt request reports it. */
export function receiptReport(outcome: DownloadOutcome): ReceiptRequest {
  return {
    verified: outcome.verifiedFiles,
    unverified: [...outcome.unverifiedFiles],
    failed: outcome.failedFiles.map((f) => f.path),
  };
}

/**
 * Asks the server for a signed receipt of a package download just finished, with the engine's
 * own check. The server records a response once it has closed, so the last range may not be on
 * record yet (it answers 409): asked again a few times before giving up. Null when no receipt
 * came: the download itself succeeded either way, the receipt is a courtesy to the sender.
 */
export async function requestReceipt(
  ask: (report: ReceiptRequest) => Promise<DeliveryReceipt>,
  outcome: DownloadOutcome,
  clock: Clock = systemClock,
): Promise<DeliveryReceipt | null> {
  const report = receiptReport(outcome);
  const tries = 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask(report);
    } catch (error) {
      // An ApiError, or the same call's failure as a store carries it: both have the status.
      if ((error as { status?: unknown } | null)?.status !== 409 || attempt === tries) return null;
      await clock.sleep(500 * attempt);
    }
  }
}
