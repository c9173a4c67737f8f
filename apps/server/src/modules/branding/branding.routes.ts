import type { FastifyInstance } from 'fastify';
import { brandingRequest } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError, parse } from '../../http/errors';
import { contractsOfUser } from '../contracts/contracts.repository';
import { memberOf } from '../contracts/contracts.policy';
import { brandingAdminOf } from './branding.policy';
import { brandingOf, brandingsOf, updateBranding } from './branding.service';

/**
 * The projects (branding) service, mounted under its own prefix: every member may read their
 * contracts' brandings; only a project admin may change one, and only where the operator has
 * enabled custom branding. A contract with it disabled reads as having no branding.
 */
export async function brandingRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  app.get('/', async (request) => {
    const { user } = requireUser(request);
    return brandingsOf(ctx.db, await contractsOfUser(ctx.db, user.id));
  });

  app.get('/:contract/', async (request) => {
    const { contract } = await memberOf(
      ctx.db,
      requireUser(request),
      (request.params as { contract: string }).contract,
    );
    const branding = await brandingOf(ctx.db, contract);
    if (!branding) throw ApiError.notFound();
    return branding;
  });

  app.patch('/:contract/', { bodyLimit: 8 * 1024 * 1024 }, async (request) => {
    const { contract } = await brandingAdminOf(
      ctx.db,
      requireUser(request),
      (request.params as { contract: string }).contract,
    );
    return updateBranding(ctx, contract, parse(brandingRequest, request.body));
  });
}
