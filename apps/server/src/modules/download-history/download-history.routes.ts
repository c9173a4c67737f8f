import type { FastifyInstance } from 'fastify';
import { downloadHistoryRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { downloadHistoryOf } from './download-history.service';

/** The sender's download history of a package: files covered, verification, receipts. */
export async function downloadHistoryRoutesPlugin(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  serve(app, downloadHistoryRoutes.packageHistory, async (request) =>
    downloadHistoryOf(ctx, requireUser(request), request.params.slug),
  );
}
