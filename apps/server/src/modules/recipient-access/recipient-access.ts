import type { PackageRow, RecipientRow } from '../../db/rows';

// The one rule of what a recipient may do with a package they were sent. The caller (a signed-in
// user, or the holder of a link's key) is first matched to their recipient row of the package
// (`findRecipientAccess`); these predicates then decide on that row alone, and each route turns
// a refusal into the answer its client reads. The list statements ask the same questions in SQL
// (`recipient-access.sql.ts`), and a test holds both to the same answers.
//
// Checked in this order, so a caller learns no more than they may: a package that is not theirs
// to see is unknown; a recipient the sender removed is told so before anything else; then an
// expired package is gone; only then does a PIN matter.

/** What the rule reads of a package. */
export type AccessPackage = Pick<
  PackageRow,
  'status' | 'validFrom' | 'expiresAt' | 'objectsDeletedAt'
>;

/** What the rule reads of the caller's recipient row. */
export type AccessRecipient = Pick<RecipientRow, 'removed' | 'pinRequired' | 'pinVerifiedAt'>;

/** A package with the caller's recipient row of it, or null when the caller has none. */
export type AccessRow = { pkg: AccessPackage; recipient: AccessRecipient } | null;

/**
 * Why a caller may not: `not_found` (not their package, or not yet sent to them: the same answer
 * as a slug that names nothing), `removed` (the sender removed them), `expired` (past its end, or
 * its objects are gone), `needs_pin` (a PIN is still to be proved), `pin_not_required` (a PIN
 * call on a package that asks none of them).
 */
export type Refusal = 'not_found' | 'removed' | 'expired' | 'needs_pin' | 'pin_not_required';

/** 'ok', or the first reason the caller may not. */
export type Access<R extends Refusal = Refusal> = 'ok' | R;

/**
 * Expired once its end has passed, or once the sweeper removed its objects (which also moves
 * the end to that moment, so every other reader of `expiresAt` agrees).
 */
export function isExpired(
  pkg: Pick<PackageRow, 'objectsDeletedAt' | 'expiresAt'>,
  now: Date,
): boolean {
  return pkg.objectsDeletedAt !== null || now >= pkg.expiresAt;
}

/** The recipient must still prove a PIN before the files are theirs (names and bytes). */
export function needsPin(recipient: Pick<RecipientRow, 'pinRequired' | 'pinVerifiedAt'>): boolean {
  return recipient.pinRequired && recipient.pinVerifiedAt === null;
}

/** Too many wrong PINs: no PIN is sent or checked for this recipient until the lock ends. */
export function pinLockedOut(recipient: Pick<RecipientRow, 'pinLockedUntil'>, now: Date): boolean {
  return recipient.pinLockedUntil !== null && recipient.pinLockedUntil > now;
}

/**
 * May the caller see the package in their Inbox and open its page? Recipients never see one
 * still uploading or before its access period starts. A removed recipient and an expired
 * package are still listed: the page shows the warning.
 */
export function mayList(row: AccessRow, now: Date): Access<'not_found'> {
  if (!row) return 'not_found';
  const { pkg } = row;
  return pkg.status === 'uploading' || now < pkg.validFrom ? 'not_found' : 'ok';
}

/**
 * May the caller read the package's file list? Not once the sender removed them. An expired
 * package keeps its list (what was sent stays on record); while `needsPin`, the list is given
 * without names (only the count).
 */
export function maySeeFiles(row: AccessRow, now: Date): Access<'not_found' | 'removed'> {
  const listed = mayList(row, now);
  if (!row || listed !== 'ok') return listed;
  return row.recipient.removed ? 'removed' : 'ok';
}

/**
 * Is the package still the caller's to use: listed, not removed, not expired (a PIN may still be
 * due)? This is what the Inbox's unseen badge counts and what extending the expiry asks.
 */
export function mayUse(row: AccessRow, now: Date): Access<'not_found' | 'removed' | 'expired'> {
  const files = maySeeFiles(row, now);
  if (!row || files !== 'ok') return files;
  return isExpired(row.pkg, now) ? 'expired' : 'ok';
}

/**
 * May the caller ask for a PIN, or enter one? While the package is theirs to use and asks a PIN
 * of them (asking again after proving one is allowed). A PIN lock is not part of this answer:
 * the PIN calls check `pinLockedOut` after their own checks of the mobile number.
 */
export function mayAskPin(
  row: AccessRow,
  now: Date,
): Access<'not_found' | 'removed' | 'expired' | 'pin_not_required'> {
  const use = mayUse(row, now);
  if (!row || use !== 'ok') return use;
  return row.recipient.pinRequired ? 'ok' : 'pin_not_required';
}

/**
 * May the caller download the package (or one of its files) now? While it is theirs to use and
 * no PIN is still to be proved. Checked when a grant is made and on every request that uses it.
 */
export function mayDownload(
  row: AccessRow,
  now: Date,
): Access<'not_found' | 'removed' | 'expired' | 'needs_pin'> {
  const use = mayUse(row, now);
  if (!row || use !== 'ok') return use;
  return needsPin(row.recipient) ? 'needs_pin' : 'ok';
}
