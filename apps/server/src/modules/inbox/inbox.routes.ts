import type { FastifyInstance } from 'fastify';
import { inboxRoutes, isPackagePath } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { grantFileDownloadTo, grantPackageDownloadTo } from '../downloads/downloads.service';
import {
  assertMaySeeFiles,
  packageNotFound,
  receivedBy,
  receivedByLinkKey,
  sentBy,
} from './inbox.policy';
import {
  extendExpiry,
  filesPage,
  markSeen,
  receivedFilesPage,
  receivedPage,
  sentPage,
  sentViews,
} from './inbox.service';
import { externalView, receivedView } from './inbox.views';
import { addRecipients, removeRecipient, updateRecipientMobile } from './recipients-edit.service';

/**
 * Receiving and following up: Inbox and Sent, file lists, seen and expiry, the sender's
 * recipient changes, and the external page's calls by a link's key.
 */
export async function receivingRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  const { db } = ctx;

  serve(app, inboxRoutes.receivedList, async (request) =>
    receivedPage(ctx, requireUser(request), request.query),
  );
  serve(app, inboxRoutes.sentList, async (request) =>
    sentPage(ctx, requireUser(request), request.query),
  );
  serve(app, inboxRoutes.received, async (request) =>
    receivedView(await receivedBy(db, requireUser(request), request.params.slug)),
  );
  serve(app, inboxRoutes.sent, async (request) => {
    const [view] = await sentViews(db, [
      await sentBy(db, requireUser(request), request.params.slug),
    ]);
    return view!;
  });
  serve(app, inboxRoutes.receivedFiles, async (request) => {
    const row = await receivedBy(db, requireUser(request), request.params.slug);
    assertMaySeeFiles(row);
    return receivedFilesPage(db, row, request.query.page);
  });
  serve(app, inboxRoutes.sentFiles, async (request) => {
    const { pkg } = await sentBy(db, requireUser(request), request.params.slug);
    return filesPage(db, pkg.id, request.query.page, false);
  });
  serve(app, inboxRoutes.markSeen, async (request) =>
    markSeen(ctx, requireUser(request), request.params.slug),
  );
  serve(app, inboxRoutes.extendExpiry, async (request) =>
    extendExpiry(ctx, requireUser(request), request.params.slug),
  );

  serve(app, inboxRoutes.addRecipients, async (request) =>
    addRecipients(ctx, requireUser(request), request.params.slug, request.body),
  );
  serve(app, inboxRoutes.removeRecipient, async (request) =>
    removeRecipient(ctx, requireUser(request), request.params.slug, request.params.userId),
  );
  serve(app, inboxRoutes.updateRecipient, async (request) =>
    updateRecipientMobile(
      ctx,
      requireUser(request),
      request.params.slug,
      request.params.userId,
      request.body.mobile,
    ),
  );

  serve(app, inboxRoutes.externalFiles, async (request) => {
    const row = await receivedByLinkKey(db, request.params.slug, request.query.key);
    assertMaySeeFiles(row);
    const { locked: _locked, ...files } = await receivedFilesPage(db, row, request.query.page);
    return externalView(row, files);
  });
  serve(app, inboxRoutes.externalPackageGrant, async (request) =>
    grantPackageDownloadTo(
      ctx,
      await receivedByLinkKey(db, request.params.slug, request.query.key),
      request.ip,
    ),
  );
  serve(app, inboxRoutes.externalFileGrant, async (request) => {
    const access = await receivedByLinkKey(db, request.params.slug, request.query.key);
    const rest = request.params['*'];
    // The external page's form of the call ends in '/'; a user path never does.
    const userPath = rest.endsWith('/') ? rest.slice(0, -1) : rest;
    if (!isPackagePath(userPath)) throw packageNotFound();
    return grantFileDownloadTo(ctx, access, userPath, request.ip);
  });
}
