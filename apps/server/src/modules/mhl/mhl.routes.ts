import type { FastifyInstance, FastifyReply } from 'fastify';
import { mhlRoutes, unhashedFilesHeader } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { sandboxBytes } from '../../storage/sandboxed-bytes';
import { attachment } from '../downloads/downloads.routes';
import { externalPackageMhl, packageMhlFor } from './mhl.service';
import type { PackageMhl } from './package-mhl';

/**
 * A package's ASC MHL for its recipients and sender, and for the holder of an external link's
 * key: the file crews verify a delivery against with their own tools.
 */
export async function mhlRoutesPlugin(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  // The list holds file names a sender chose; a browser opening it renders XML, so it gets the
  // sandbox of every answer carrying a user's bytes.
  app.addHook('onSend', sandboxBytes);

  serve(app, mhlRoutes.packageMhl, async (request, reply) =>
    sendMhl(reply, await packageMhlFor(ctx, requireUser(request), request.params.slug)),
  );

  serve(app, mhlRoutes.externalPackageMhl, async (request, reply) =>
    sendMhl(reply, await externalPackageMhl(ctx, request.params.slug, request.query.key)),
  );
}

function sendMhl(reply: FastifyReply, mhl: PackageMhl): FastifyReply {
  return reply
    .header(unhashedFilesHeader, String(mhl.unhashed))
    .header('content-disposition', attachment(mhl.name))
    .type('application/xml; charset=utf-8')
    .send(Buffer.from(mhl.hashList));
}
