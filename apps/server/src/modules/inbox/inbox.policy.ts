import { inboxMessages } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { tokenHash } from '../../http/secrets';
import { isActiveMember } from '../contracts/contracts.policy';
import { receivedPackage, sentBySlug, type ReceivedRow, type SentRow } from './inbox.repository';
import { isExpired } from './inbox.views';

// Who may do what with a package once it is sent. A caller who is neither its recipient nor its
// sender gets the same 404 as for a slug that names nothing, so slugs reveal nothing.

/** The 404 of the receive calls, in the words the client shows. */
export const packageNotFound = () => ApiError.detail(404, 'not_found', inboxMessages.notFound);
const gone = () => ApiError.detail(410, 'gone', inboxMessages.expired);

/** The package the signed-in caller received (even when removed: they see the warning). */
export async function receivedBy(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<ReceivedRow> {
  const row = await receivedPackage(db, slug, { userId: principal.user.id });
  if (!row) throw packageNotFound();
  return row;
}

/**
 * The package and recipient a link's key opens: only the package of that slug and only the
 * recipient the key was made for (the key is compared by its SHA-256).
 */
export async function receivedByLinkKey(
  db: Database,
  slug: string,
  key: string,
): Promise<ReceivedRow> {
  const row = await receivedPackage(db, slug, { keyHash: tokenHash(key) });
  if (!row) throw packageNotFound();
  return row;
}

/** The caller's sent package; only while they are an enabled member of its enabled contract. */
export async function sentBy(db: Database, principal: Principal, slug: string): Promise<SentRow> {
  const row = await sentBySlug(db, principal.user.id, slug);
  if (!row?.membership || !isActiveMember(row.membership, row.contract)) throw packageNotFound();
  return row;
}

/** The file list is withheld from a recipient the sender removed. */
export function assertMaySeeFiles(row: ReceivedRow): void {
  if (row.recipient.removed) throw ApiError.forbidden(inboxMessages.removed);
}

/** Changes to a package (expiry, recipients) stop once it has expired. */
export function assertNotExpired(row: Pick<ReceivedRow, 'pkg'>, now = new Date()): void {
  if (isExpired(row.pkg, now)) throw gone();
}

/** Adding recipients is sending: it needs the send permission in the contract. */
export function assertMayAddRecipients(row: SentRow): void {
  if (!row.membership?.send) throw ApiError.forbidden();
}
