import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { contractsOfUser } from './contracts.repository';

export async function contractsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.get('/contracts/', async (request) => contractsOfUser(ctx.db, requireUser(request).user.id));
}
