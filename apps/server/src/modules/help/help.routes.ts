import type { FastifyInstance } from 'fastify';
import { helpRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { serve } from '../../http/routes';

/** Public: where the web app's help links lead, as the operator configured it (HELP_URL). */
export async function helpRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  serve(app, routes.settings, async () => ({ help_url: ctx.config.helpUrl }));
}
