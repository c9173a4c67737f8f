import { pinMessages } from '@filerunner/protocol';
import { ApiError, type ErrorCode } from '../../http/errors';
import { downloadMessages } from '../downloads/download-messages';
import type { PackageRow, RecipientRow } from '../downloads/downloads.repository';

/** A refused PIN call, with its words in `detail.error`, where the PIN dialog reads them. */
export function pinRefusal(status: number, code: ErrorCode, error: string): ApiError {
  return new ApiError(status, code, { detail: { error } });
}

/**
 * May this recipient ask for or enter a PIN for this package now? The same doors as a download:
 * 404 for a package that is not theirs to see (unknown, another's key, still uploading, not yet
 * valid), 403 once the sender removed them, 410 once it expired; and 409 when the package asks
 * no PIN of them.
 */
export function assertMayVerify(pkg: PackageRow, recipient: RecipientRow, now: Date): void {
  if (pkg.status === 'uploading' || now < pkg.validFrom) throw pinNotFound();
  if (recipient.removed) throw pinRefusal(403, 'forbidden', downloadMessages.removed);
  // A package whose objects the sweeper deleted is expired whatever its date says.
  if (now >= pkg.expiresAt || pkg.objectsDeletedAt) {
    throw pinRefusal(410, 'gone', downloadMessages.expired);
  }
  if (!recipient.pinRequired) throw pinRefusal(409, 'conflict', pinMessages.notRequired);
}

export function pinNotFound(): ApiError {
  return pinRefusal(404, 'not_found', downloadMessages.notFound);
}

/** Whether the recipient's PIN is locked after too many wrong PINs. */
export function isLocked(recipient: RecipientRow, now: Date): boolean {
  return recipient.pinLockedUntil !== null && recipient.pinLockedUntil > now;
}
