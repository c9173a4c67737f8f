import type { FastifyInstance } from 'fastify';
import { receiptRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import {
  challengeExternalReceipt,
  challengeReceipt,
  issueExternalReceipt,
  issueReceipt,
  publishedReceiptKey,
  receiptsFor,
} from './receipts.service';

/**
 * Delivery receipts: the published key, a challenge over the package's bytes, a receipt on its
 * right answer, the sender's list.
 */
export async function receiptRoutesPlugin(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, receiptRoutes.publicKey, async () => publishedReceiptKey(ctx));

  serve(app, receiptRoutes.challenge, async (request) =>
    challengeReceipt(ctx, requireUser(request), request.params.slug),
  );

  serve(app, receiptRoutes.challengeExternal, async (request) =>
    challengeExternalReceipt(ctx, request.params.slug, request.query.key),
  );

  serve(app, receiptRoutes.issue, async (request) =>
    issueReceipt(ctx, requireUser(request), request.params.slug, request.body),
  );

  serve(app, receiptRoutes.issueExternal, async (request) =>
    issueExternalReceipt(ctx, request.params.slug, request.query.key, request.body),
  );

  serve(app, receiptRoutes.list, async (request) =>
    receiptsFor(ctx, requireUser(request), request.params.slug),
  );
}
