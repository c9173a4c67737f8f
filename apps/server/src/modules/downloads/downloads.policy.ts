import { ApiError } from '../../http/errors';
import { downloadMessages } from './download-messages';
import type { PackageRow, RecipientRow } from './downloads.repository';

/**
 * May this recipient download this package now? Throws the answer the client shows otherwise:
 * 404 for a package that is not (yet) theirs to see (still uploading, not yet valid), 403 when
 * the sender removed them or a PIN is still to be verified, 410 once the package has expired.
 * Checked when a grant is made and again on every request that uses it.
 */
export function assertMayDownload(
  pkg: PackageRow,
  recipient: RecipientRow,
  now: Date = new Date(),
): void {
  if (pkg.status === 'uploading' || now < pkg.validFrom) throw packageNotFound();
  if (recipient.removed) throw ApiError.forbidden(downloadMessages.removed);
  // Objects swept away past the storage limit leave nothing to download: expired too.
  if (now >= pkg.expiresAt || pkg.objectsDeletedAt)
    throw ApiError.detail(410, 'gone', downloadMessages.expired);
  if (recipient.pinRequired && !recipient.pinVerifiedAt) {
    throw ApiError.forbidden(downloadMessages.locked);
  }
}

/** The 404 of downloads, in the words the client shows. */
export function packageNotFound(): ApiError {
  return ApiError.detail(404, 'not_found', downloadMessages.notFound);
}
