import {
  limits,
  mobileHint,
  type ExternalPackage,
  type PackageFile,
  type ReceivedPackage,
  type SentPackage,
  type SentRecipient,
} from '@filerunner/protocol';
import { displayName } from '../accounts/display-name';
import { isExpired, needsPin } from '../recipient-access/recipient-access';
import type { PackageRow } from '../../db/rows';
import type { ReceivedRow } from './inbox.repository';
import type { PackageView, ReceivedView, SentRecipientView } from './inbox.columns';

// The values these views take are the lists' columns (inbox.columns.ts), whose types come from
// there; a detail page passes full rows, which fit.

const HOUR_MS = 3_600_000;

/** In its last `expiringSoonHours` and not expired: the 'Expiring' chip and the extend button. */
export function expiresSoon(
  pkg: Pick<PackageRow, 'objectsDeletedAt' | 'expiresAt'>,
  now: Date,
): boolean {
  return (
    !isExpired(pkg, now) &&
    pkg.expiresAt.getTime() - now.getTime() <= limits.expiringSoonHours * HOUR_MS
  );
}

function core({ pkg, contract, sender }: PackageView, now: Date) {
  return {
    id: pkg.id,
    slug: pkg.slug,
    name: pkg.name,
    sender: sender ? { name: displayName(sender) } : null,
    contract: { id: contract.id, slug: contract.slug, name: contract.name },
    date_sent: pkg.sentAt.toISOString(),
    valid_date: pkg.validFrom.toISOString(),
    expires_date: pkg.expiresAt.toISOString(),
    expired: isExpired(pkg, now),
    expires_soon: expiresSoon(pkg, now),
    bytes: pkg.bytes,
    num_files: pkg.numFiles,
    message: pkg.message,
    pin_verified: pkg.pinVerify,
    invalid_filenames: pkg.invalidFilenames,
    can_extend_expiry: contract.settings.can_extend_expiry,
  };
}

/** A package as this recipient sees it. */
export function receivedView(row: ReceivedView, now = new Date()): ReceivedPackage {
  const { recipient } = row;
  // Added to the core's object rather than spread into a new one: V8 copies an object this size
  // through its slow path, about 15 µs a package, most of a list page's own work.
  return Object.assign(core(row, now), {
    seen: recipient.seenAt !== null,
    removed: recipient.removed,
    downloaded: recipient.downloaded === 'complete',
    download_status: recipient.downloaded,
    locked: needsPin(recipient),
    mobile_hint: recipient.pinRequired && recipient.mobile ? mobileHint(recipient.mobile) : null,
  });
}

function recipientView(slug: string, named: SentRecipientView): SentRecipient {
  const { recipient } = named;
  const email = named.email ?? recipient.email;
  return {
    id: recipient.userId ?? -recipient.id,
    package_slug: slug,
    name: displayName({ email, firstName: named.firstName, lastName: named.lastName }),
    first_name: named.firstName,
    last_name: named.lastName,
    email: recipient.email,
    mobile: recipient.mobile,
    mobile_hint: recipient.mobile ? mobileHint(recipient.mobile) : null,
    verified: named.verified,
    pin_required: recipient.pinRequired,
    pin_verified: recipient.pinVerifiedAt !== null,
    removed: recipient.removed,
    seen: recipient.seenAt !== null,
    downloaded: recipient.downloaded,
    downloads: named.downloads,
  };
}

/** A package as its sender sees it, with each recipient's status and download history. */
export function sentView(
  facts: PackageView,
  recipients: SentRecipientView[],
  now = new Date(),
): SentPackage {
  // Added to, not spread, as in `receivedView`.
  return Object.assign(core(facts, now), {
    downloaded: recipients.some((r) => r.recipient.downloaded === 'complete'),
    removed: false,
    seen: recipients.some((r) => r.recipient.seenAt !== null),
    recipients: recipients.map((r) => recipientView(facts.pkg.slug, r)),
  });
}

export function fileView(row: {
  userPath: string;
  size: number;
  objectKey: string | null;
}): PackageFile {
  return {
    user_path: row.userPath,
    size: row.size,
    object: row.objectKey ? row.objectKey.slice(row.objectKey.lastIndexOf('/') + 1) : '',
  };
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What the external page shows of the package a key opens; the files come beside it. */
export function externalView(
  row: ReceivedRow,
  files: Pick<ExternalPackage, 'files' | 'total_files' | 'page' | 'page_size' | 'has_more'>,
  now = new Date(),
): ExternalPackage {
  const received = receivedView(row, now);
  return {
    name: received.name,
    slug: received.slug,
    sender: { name: received.sender?.name ?? '' },
    contract: { name: received.contract.name },
    message: received.message,
    date_sent: epochSeconds(row.pkg.sentAt),
    valid_date: epochSeconds(row.pkg.validFrom),
    expires_date: epochSeconds(row.pkg.expiresAt),
    expired: received.expired,
    expires_soon: received.expires_soon,
    locked: received.locked,
    pin_verified: received.pin_verified,
    download_url: `/packages/external/${encodeURIComponent(row.pkg.slug)}/download/`,
    invalid_filenames: received.invalid_filenames,
    bytes: received.bytes,
    num_files: received.num_files,
    mobile_hint: received.mobile_hint,
    ...files,
  };
}
