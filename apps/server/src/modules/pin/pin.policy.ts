import { pinMessages } from '@filerunner/protocol';
import { ApiError, type ErrorCode } from '../../http/errors';
import { downloadMessages } from '../downloads/download-messages';
import { mayAskPin, type AccessRow } from '../recipient-access/recipient-access';

/** A refused PIN call, with its words in `detail.error`, where the PIN dialog reads them. */
export function pinRefusal(status: number, code: ErrorCode, error: string): ApiError {
  return new ApiError(status, code, { detail: { error } });
}

/**
 * May this recipient ask for or enter a PIN for this package now (`mayAskPin`)? The same doors
 * as a download: 404 for a package that is not theirs to see (unknown, another's key, still
 * uploading, not yet valid), 403 once the sender removed them, 410 once it expired; and 409 when
 * the package asks no PIN of them.
 */
export function assertMayAskPin<Row extends AccessRow>(
  row: Row,
  now: Date,
): asserts row is NonNullable<Row> {
  switch (mayAskPin(row, now)) {
    case 'ok':
      return;
    case 'not_found':
      throw pinNotFound();
    case 'removed':
      throw pinRefusal(403, 'forbidden', downloadMessages.removed);
    case 'expired':
      throw pinRefusal(410, 'gone', downloadMessages.expired);
    case 'pin_not_required':
      throw pinRefusal(409, 'conflict', pinMessages.notRequired);
  }
}

export function pinNotFound(): ApiError {
  return pinRefusal(404, 'not_found', downloadMessages.notFound);
}
