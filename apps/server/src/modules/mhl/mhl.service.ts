import type { AppContext } from '../../context';
import type { PackageRow } from '../../db/rows';
import type { Principal } from '../../http/auth';
import { isActiveMember } from '../contracts/contracts.policy';
import { assertMayDownload } from '../downloads/downloads.policy';
import { heldTar } from '../downloads/downloads.service';
import { receivedByLinkKey } from '../inbox/inbox.policy';
import { sentBySlug } from '../inbox/inbox.repository';
import { findRecipientAccess } from '../recipient-access/recipient-access.repository';
import type { PackageMhl } from './package-mhl';

/**
 * The hash list of a package the signed-in caller sent (while they are an active member of its
 * contract, as for the Sent detail, and also once it has expired: what was sent stays on record)
 * or received (under the download rules: the list names every file, as the files page does once
 * they may download). Anyone else gets the downloads' 404.
 */
export async function packageMhlFor(
  ctx: AppContext,
  principal: Principal,
  slug: string,
): Promise<PackageMhl> {
  const sent = await sentBySlug(ctx.db, principal.user.id, slug);
  if (sent?.membership && isActiveMember(sent.membership, sent.contract)) {
    return mhlOf(ctx, sent.pkg);
  }
  const access = await findRecipientAccess(ctx.db, slug, { userId: principal.user.id });
  assertMayDownload(access);
  return mhlOf(ctx, access.pkg);
}

/** The hash list for the holder of an external link's key, under the download rules. */
export async function externalPackageMhl(
  ctx: AppContext,
  slug: string,
  key: string,
): Promise<PackageMhl> {
  const access = await receivedByLinkKey(ctx.db, slug, key);
  assertMayDownload(access);
  return mhlOf(ctx, access.pkg);
}

/** The same bytes as the tar's `ascmhl` member: made by the tar's own layout. */
async function mhlOf(ctx: AppContext, pkg: PackageRow): Promise<PackageMhl> {
  const { tar } = await heldTar(ctx, pkg);
  return tar.mhl;
}
