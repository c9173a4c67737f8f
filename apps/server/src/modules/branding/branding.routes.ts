import type { FastifyInstance, FastifyRequest } from 'fastify';
import { brandingRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { contractsFrom } from '../contracts/contracts.repository';
import { contractMember } from '../contracts/contract-access';
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
    return brandingsOf(ctx.db, contractsFrom(requireUser(request).memberships));
  });

  serve(
    app,
    routes.get,
    async (_request, _reply, contract) => {
      const branding = await brandingOf(ctx.db, contract);
      if (!branding) throw ApiError.notFound();
      return branding;
    },
    { access: contractMember(ctx.db) },
  );

  const brandingAdmin = async (request: FastifyRequest, params: { contract: string }) =>
    (await brandingAdminOf(ctx.db, requireUser(request), params.contract)).contract;
  // Where the operator has switched branding off, or the user is no admin, every save gets the
  // same refusal, whatever its body.
  serve(
    app,
    routes.update,
    async (request, _reply, contract) => updateBranding(ctx, contract, request.body),
    { access: brandingAdmin, fastify: { bodyLimit: BRANDING_BODY_LIMIT } },
  );
}
