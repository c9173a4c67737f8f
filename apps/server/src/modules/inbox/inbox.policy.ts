import { inboxMessages } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { tokenHash } from '../../http/secrets';
import { isActiveMember } from '../contracts/contracts.policy';
import {
  isExpired,
  mayList,
  maySeeFiles,
  mayUse,
  type Refusal,
} from '../recipient-access/recipient-access';
import {
  findRecipientAccess,
  type RecipientOf,
} from '../recipient-access/recipient-access.repository';
import { sentBySlug, type ReceivedRow, type SentRow } from './inbox.repository';

// Who may do what with a package once it is sent. What a recipient may do is the
// recipient-access rule's to say; this turns its refusals into the answers the Inbox's client
// reads. A caller who is neither its recipient nor its sender gets the same 404 as for a slug
// that names nothing, so slugs reveal nothing.

/** The 404 of the receive calls, in the words the client shows. */
export const packageNotFound = () => ApiError.detail(404, 'not_found', inboxMessages.notFound);
const gone = () => ApiError.detail(410, 'gone', inboxMessages.expired);

/** The receive calls' answer to a refusal of the recipient-access rule. */
function refusal(reason: Exclude<Refusal, 'needs_pin' | 'pin_not_required'>): ApiError {
  switch (reason) {
    case 'not_found':
      return packageNotFound();
    case 'removed':
      return ApiError.forbidden(inboxMessages.removed);
    case 'expired':
      return gone();
  }
}

async function receivedOf(db: Database, slug: string, who: RecipientOf): Promise<ReceivedRow> {
  const row = await findRecipientAccess(db, slug, who);
  // mayList refuses nothing but `not_found`.
  if (!row || mayList(row, new Date()) !== 'ok') throw packageNotFound();
  return row;
}

/**
 * The package the signed-in caller received, while `mayList` lets them see it (even when
 * removed: they see the warning).
 */
export const receivedBy = (db: Database, principal: Principal, slug: string) =>
  receivedOf(db, slug, { userId: principal.user.id });

/**
 * The package and recipient a link's key opens: only the package of that slug and only the
 * recipient the key was made for (the key is compared by its SHA-256).
 */
export const receivedByLinkKey = (db: Database, slug: string, key: string) =>
  receivedOf(db, slug, { keyHash: tokenHash(key) });

/** The caller's sent package; only while they are an enabled member of its enabled contract. */
export async function sentBy(db: Database, principal: Principal, slug: string): Promise<SentRow> {
  const row = await sentBySlug(db, principal.user.id, slug);
  if (!row?.membership || !isActiveMember(row.membership, row.contract)) throw packageNotFound();
  return row;
}

/** The file list is withheld from a recipient the sender removed (`maySeeFiles`). */
export function assertMaySeeFiles(row: ReceivedRow, now = new Date()): void {
  const files = maySeeFiles(row, now);
  if (files !== 'ok') throw refusal(files);
}

/** Extending the expiry is for a recipient who may still use the package (`mayUse`). */
export function assertMayUse(row: ReceivedRow, now = new Date()): void {
  const use = mayUse(row, now);
  if (use !== 'ok') throw refusal(use);
}

/** The sender's changes to a package (expiry, recipients) stop once it has expired. */
export function assertNotExpired(row: Pick<SentRow, 'pkg'>, now = new Date()): void {
  if (isExpired(row.pkg, now)) throw gone();
}

/** Adding recipients is sending: it needs the send permission in the contract. */
export function assertMayAddRecipients(row: SentRow): void {
  if (!row.membership?.send) throw ApiError.forbidden();
}
