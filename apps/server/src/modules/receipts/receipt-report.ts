import { receiptMessages, type ReceiptReport } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';

/**
 * Refuses (400, by field) a verification report the package cannot bear, before anything is
 * signed: more files verified than the tar has members, a path that is not one of them, one
 * named twice, or counts that together pass the members'. `members` are the tar's paths: the
 * package's files and the hash list the server adds, which the engine checks like the rest.
 */
export function assertReportFits(report: ReceiptReport, members: readonly string[]): void {
  const count = members.length;
  if (report.verified > count) {
    throw ApiError.fields({ verified: [receiptMessages.verifiedTooMany(count)] });
  }
  const known = new Set(members);
  const named = new Set<string>();
  for (const field of ['unverified', 'failed'] as const) {
    for (const path of report[field]) {
      if (!known.has(path))
        throw ApiError.fields({ [field]: [receiptMessages.notInPackage(path)] });
      if (named.has(path)) throw ApiError.fields({ [field]: [receiptMessages.namedTwice(path)] });
      named.add(path);
    }
  }
  if (report.verified + named.size > count) {
    throw ApiError.fields({ verified: [receiptMessages.tooManyFiles(count)] });
  }
}
