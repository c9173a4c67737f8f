import type { FastifyInstance } from 'fastify';
import {
  downloadRoutes,
  isPackagePath,
  type FileDownloadGrant,
  type PackageDownloadGrant,
} from '@filerunner/protocol';
import type { PackageRow } from '../../db/rows';
import type { AppContext } from '../../context';
import { requireUser, type Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { sentBy } from '../inbox/inbox.policy';
import { isExpired } from '../recipient-access/recipient-access';
import { downloadMessages } from './download-messages';
import { packageNotFound } from './downloads.policy';
import { storedFile } from './downloads.repository';
import { downloadOnSend, sendDownload } from './downloads.routes';
import { baseName, heldTar, laidOutTar, servableFile, servableTar } from './downloads.service';
import { tarMembers, type ServableFile } from './package-bytes';

/*
 * A sender's own copy of a package they sent: the same tar (or file) a recipient gets, in the
 * same grant shape, so the page downloads it with the same engine and menu. A sender is no
 * recipient, so no grant row can name them; the URL is instead fetched with their session, and
 * checked again on every request as the Sent screen checks it (their package, still a member of
 * its project). Nothing is recorded: the Sent screen's download history is the recipients'.
 */

/** The sender's package as it may be downloaded now: 404 as Sent answers it, 410 once expired. */
async function ownPackage(
  ctx: AppContext,
  principal: Principal,
  slug: string,
): Promise<PackageRow> {
  const { pkg } = await sentBy(ctx.db, principal, slug);
  // Expired, its objects are (or are about to be) deleted: the sender's copy ends with the rest.
  if (isExpired(pkg, new Date())) throw ApiError.detail(410, 'gone', downloadMessages.expired);
  return pkg;
}

/** The stored file at the user path the route's rest names (the external form ends in '/'). */
async function ownFile(ctx: AppContext, pkg: PackageRow, rest: string): Promise<ServableFile> {
  const userPath = rest.endsWith('/') ? rest.slice(0, -1) : rest;
  if (!isPackagePath(userPath)) throw packageNotFound();
  const file = await storedFile(ctx.db, pkg.id, { userPath });
  if (!file?.objectKey) throw packageNotFound();
  return file as ServableFile;
}

function sentUrl(ctx: AppContext, slug: string, kind: 'tar' | 'file', name: string): string {
  return `${ctx.config.publicUrl}/api/packages/sent/${encodeURIComponent(slug)}/${kind}/${name}`;
}

export async function senderDownloadsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, downloadRoutes.sentPackageGrant, async (request): Promise<PackageDownloadGrant> => {
    const pkg = await ownPackage(ctx, requireUser(request), request.params.slug);
    const laidOut = await laidOutTar(ctx, pkg);
    const { tar } = laidOut;
    const servable = servableTar(ctx, pkg, laidOut);
    return {
      filename: servable.filename,
      download_url: sentUrl(ctx, pkg.slug, 'tar', encodeURIComponent(servable.filename)),
      size: servable.size,
      num_files: tar.files.length,
      mtime: tar.mtime,
      files: tarMembers(tar),
    };
  });

  serve(app, downloadRoutes.sentFileGrant, async (request): Promise<FileDownloadGrant> => {
    const pkg = await ownPackage(ctx, requireUser(request), request.params.slug);
    const file = await ownFile(ctx, pkg, request.params['*']);
    const path = file.userPath.split('/').map(encodeURIComponent).join('/');
    return {
      filename: baseName(file.userPath),
      download_url: sentUrl(ctx, pkg.slug, 'file', path),
      size: file.size,
    };
  });

  serve(
    app,
    downloadRoutes.sentPackageBytes,
    async (request, reply) => {
      const pkg = await ownPackage(ctx, requireUser(request), request.params.slug);
      // The tar the grant call laid out and kept, so ranged requests do not read the rows again.
      const tar = servableTar(ctx, pkg, await heldTar(ctx, pkg));
      return sendDownload(ctx, request, reply, tar, null);
    },
    { fastify: { onSend: downloadOnSend } },
  );

  serve(
    app,
    downloadRoutes.sentFileBytes,
    async (request, reply) => {
      const pkg = await ownPackage(ctx, requireUser(request), request.params.slug);
      const file = await ownFile(ctx, pkg, request.params['*']);
      return sendDownload(ctx, request, reply, servableFile(ctx, pkg, file), null);
    },
    { fastify: { onSend: downloadOnSend } },
  );
}
