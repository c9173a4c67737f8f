import type { FastifyInstance } from 'fastify';
import { preflightRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { sandboxBytes } from '../../storage';
import { contentRange } from '../../storage/byte-range';
import { attachment } from '../downloads/downloads.routes';
import { createProbe, readProbe, removeProbe } from './preflight.service';

/** The pre-flight check's storage round trip: any signed-in user, on their own probes only. */
export async function preflightRoutesPlugin(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  serve(app, routes.createProbe, async (request) => createProbe(ctx, requireUser(request)));
  serve(
    app,
    routes.readProbe,
    async (request, reply) => {
      const read = await readProbe(
        ctx,
        requireUser(request),
        request.params.id,
        request.headers.range,
      );
      if (read.kind === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${read.size}`).send();
      }
      if (read.partial)
        reply.code(206).header('content-range', contentRange(read.range, read.size));
      return reply
        .header('accept-ranges', 'bytes')
        .header('content-length', read.range.length)
        .header('content-disposition', attachment('preflight-probe.bin'))
        .type('application/octet-stream')
        .send(read.body);
    },
    // The caller chose these bytes: sandboxed, like every storage and download answer.
    { fastify: { onSend: sandboxBytes } },
  );
  serve(app, routes.removeProbe, async (request) =>
    removeProbe(ctx, requireUser(request), request.params.id),
  );
}
