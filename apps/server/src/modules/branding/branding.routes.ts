import type { FastifyInstance, FastifyRequest } from 'fastify';
import { brandingRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { contractsOfUser } from '../contracts/contracts.repository';
import { memberOf, type ContractRow } from '../contracts/contracts.policy';
import { brandingAdminOf } from './branding.policy';
import { brandingOf, brandingsOf, updateBranding } from './branding.service';

/** A logo travels as base64 inside the JSON body, so a branding save may be far larger than a form. */
const BRANDING_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * The projects (branding) service: every member may read their contracts' brandings; only a
 * project admin may change one, and only where the operator has enabled custom branding. A
 * contract with it disabled reads as having no branding.
 */
export async function brandingRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, routes.list, async (request) => {
    const { user } = requireUser(request);
    return brandingsOf(ctx.db, await contractsOfUser(ctx.db, user.id));
  });

  serve(app, routes.get, async (request) => {
    const { contract } = await memberOf(ctx.db, requireUser(request), request.params.contract);
    const branding = await brandingOf(ctx.db, contract);
    if (!branding) throw ApiError.notFound();
    return branding;
  });

  // Who may change the branding is settled before the body is checked: where the operator has
  // switched branding off, or the user is no admin, every save gets the same refusal.
  const admitted = new WeakMap<FastifyRequest, ContractRow>();
  await app.register(async (scope) => {
    scope.addHook('preValidation', async (request) => {
      const params = routes.update.params.safeParse(request.params);
      // A path that names no contract is left to the validator, which answers 404.
      if (!params.success) return;
      const access = await brandingAdminOf(ctx.db, requireUser(request), params.data.contract);
      admitted.set(request, access.contract);
    });
    serve(
      scope,
      routes.update,
      async (request) => {
        const contract =
          admitted.get(request) ??
          (await brandingAdminOf(ctx.db, requireUser(request), request.params.contract)).contract;
        return updateBranding(ctx, contract, request.body);
      },
      { fastify: { bodyLimit: BRANDING_BODY_LIMIT } },
    );
  });
}
