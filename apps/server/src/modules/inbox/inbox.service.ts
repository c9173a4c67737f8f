import {
  expiryExtensionDays,
  inboxMessages,
  limits,
  packageFilesPageSize,
  packageLimits,
  type PackageFilesPage,
  type ReceivedPage,
  type SentPackage,
  type SentPage,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { downloadsOfRecipients } from '../downloads/downloads.repository';
import { assertMayUse, receivedBy } from './inbox.policy';
import {
  extendExpiry as moveExpiry,
  filesPageOf,
  markSeen as markRowSeen,
  recipientsOf,
  type PackageFacts,
  type ReceivedRow,
} from './inbox.repository';
import { receivedListOf, sentListOf } from './inbox-lists.repository';
import { expiresSoon, fileView, receivedView, sentView } from './inbox.views';
import { needsPin } from '../recipient-access/recipient-access';

const DAY_MS = 86_400_000;
const window = (page: number, size: number) => ({ offset: (page - 1) * size, limit: size });

/** One page of the caller's Inbox (newest first) with the badge's unseen counts. */
export async function receivedPage(
  ctx: AppContext,
  principal: Principal,
  query: { page: number; clear?: boolean | undefined; contract_slug?: string | undefined },
): Promise<ReceivedPage> {
  // `clear` is the client starting its list over: it gets the first page.
  const page = query.clear ? 1 : query.page;
  const size = limits.receivedPageSize;
  const { rows, total, unseen } = await receivedListOf(
    ctx.db,
    principal.user.id,
    query.contract_slug,
    window(page, size).offset,
  );
  const now = new Date();
  return {
    packages: rows.map((row) => receivedView(row, now)),
    page,
    page_size: size,
    total,
    has_more: page * size < total,
    unseen:
      query.contract_slug === undefined
        ? [...unseen.values()].reduce((sum, n) => sum + n, 0)
        : (unseen.get(query.contract_slug) ?? 0),
    unseen_by_contract: Object.fromEntries(unseen),
  };
}

/** One page of the caller's Sent list, newest first. */
export async function sentPage(
  ctx: AppContext,
  principal: Principal,
  query: { page: number; contract_slug?: string | undefined },
): Promise<SentPage> {
  const size = limits.sentPageSize;
  const { rows, total } = await sentListOf(
    ctx.db,
    principal.user,
    query.contract_slug,
    window(query.page, size).offset,
  );
  const now = new Date();
  return {
    packages: rows.map((row) => sentView(row, row.recipients, now)),
    page: query.page,
    page_size: size,
    total,
    has_more: query.page * size < total,
  };
}

/** Sent packages as their sender sees them, recipients and download histories included. */
export async function sentViews(db: Database, rows: PackageFacts[]): Promise<SentPackage[]> {
  const recipients = await recipientsOf(
    db,
    rows.map((r) => r.pkg.id),
  );
  const downloads = await downloadsOfRecipients(
    db,
    [...recipients.values()].flat().map((r) => r.recipient.id),
  );
  const now = new Date();
  return rows.map((row) =>
    sentView(
      row,
      (recipients.get(row.pkg.id) ?? []).map((r) => ({
        ...r,
        downloads: downloads.get(r.recipient.id) ?? [],
      })),
      now,
    ),
  );
}

/**
 * One page of a package's files by path. With `pinDue` (a recipient who `needsPin`) none of them
 * are given, only the count, and the page says `locked` so the client offers the PIN.
 */
export async function filesPage(
  db: Database,
  packageId: number,
  page: number,
  pinDue: boolean,
): Promise<PackageFilesPage> {
  const size = packageFilesPageSize;
  if (pinDue) {
    const { total } = await filesPageOf(db, packageId, { offset: 0, limit: 0 });
    return { files: [], total_files: total, page, page_size: size, has_more: false, locked: true };
  }
  const { rows, total } = await filesPageOf(db, packageId, window(page, size));
  return {
    files: rows.map(fileView),
    total_files: total,
    page,
    page_size: size,
    has_more: page * size < total,
    locked: false,
  };
}

export const receivedFilesPage = (db: Database, row: ReceivedRow, page: number) =>
  filesPage(db, row.pkg.id, page, needsPin(row.recipient));

/** Marks the caller's received package seen (the first time counts) and answers it. */
export async function markSeen(ctx: AppContext, principal: Principal, slug: string) {
  const row = await receivedBy(ctx.db, principal, slug);
  await markRowSeen(ctx.db, row.recipient.id);
  return receivedView(await receivedBy(ctx.db, principal, slug));
}

/**
 * Keeps an expiring package longer: only when the contract allows it, the package is in its
 * last `expiringSoonHours`, and the caller is a recipient who still has access. The new end is
 * `expiryExtensionDays` later, but never past the storage limit (15 days after sending).
 */
export async function extendExpiry(ctx: AppContext, principal: Principal, slug: string) {
  const row = await receivedBy(ctx.db, principal, slug);
  const now = new Date();
  assertMayUse(row, now);
  if (!row.contract.settings.can_extend_expiry) {
    throw ApiError.forbidden(inboxMessages.extendNotAllowed);
  }
  if (!expiresSoon(row.pkg, now)) {
    throw ApiError.detail(400, 'validation', inboxMessages.extendNotExpiring);
  }
  const storageLimit = row.pkg.sentAt.getTime() + packageLimits.accessPeriodMaxDays * DAY_MS;
  const until = Math.min(row.pkg.expiresAt.getTime() + expiryExtensionDays * DAY_MS, storageLimit);
  if (until <= row.pkg.expiresAt.getTime()) {
    throw ApiError.detail(400, 'validation', inboxMessages.extendAtLimit);
  }
  // A concurrent extension that moved it first wins; this call then answers its result.
  await moveExpiry(ctx.db, row.pkg.id, row.pkg.expiresAt, new Date(until));
  return receivedView(await receivedBy(ctx.db, principal, slug));
}
