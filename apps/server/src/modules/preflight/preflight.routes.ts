import type { FastifyInstance } from 'fastify';
import { preflightRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { createProbe, removeProbe } from './preflight.service';

/** The pre-flight check's storage round trip: any signed-in user, on their own probes only. */
export async function preflightRoutesPlugin(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  serve(app, routes.createProbe, async (request) => createProbe(ctx, requireUser(request)));
  serve(app, routes.removeProbe, async (request) =>
    removeProbe(ctx, requireUser(request), request.params.id),
  );
}
