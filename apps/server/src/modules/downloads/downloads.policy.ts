import { ApiError } from '../../http/errors';
import { mayDownload, type AccessRow } from '../recipient-access/recipient-access';
import { downloadMessages } from './download-messages';

/**
 * May this recipient download this package now (`mayDownload`)? Throws the answer the client
 * shows otherwise: 404 for a package that is not (yet) theirs to see (still uploading, not yet
 * valid), 403 when the sender removed them or a PIN is still to be verified, 410 once the
 * package has expired. Checked when a grant is made and again on every request that uses it.
 */
export function assertMayDownload<Row extends AccessRow>(
  row: Row,
  now: Date = new Date(),
): asserts row is NonNullable<Row> {
  switch (mayDownload(row, now)) {
    case 'ok':
      return;
    case 'not_found':
      throw packageNotFound();
    case 'removed':
      throw ApiError.forbidden(downloadMessages.removed);
    case 'expired':
      throw ApiError.detail(410, 'gone', downloadMessages.expired);
    case 'needs_pin':
      throw ApiError.forbidden(downloadMessages.locked);
  }
}

/** The 404 of downloads, in the words the client shows. */
export function packageNotFound(): ApiError {
  return ApiError.detail(404, 'not_found', downloadMessages.notFound);
}
