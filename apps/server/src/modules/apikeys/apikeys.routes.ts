import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiKeyRoutes, limits, messages } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import type { AppContext } from '../../context';

/**
 * Only a signed-in person makes keys: a key that could mint more would let a leaked key outlive
 * its own revocation. Settled before the body is read, so the refusal is the same whatever is sent.
 */
async function sessionOnly(request: FastifyRequest): Promise<undefined> {
  if (requireUser(request).via === 'api_key') {
    throw ApiError.forbidden(messages.apiKeys.sessionRequired);
  }
  return undefined;
}

export async function apiKeysRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { apiKeys } = opts.ctx;

  // Listing with a key is allowed: it shows names and dates only, never a key.
  serve(app, apiKeyRoutes.list, async (request) => apiKeys.list(requireUser(request).user.id));

  serve(
    app,
    apiKeyRoutes.create,
    async (request) => {
      const userId = requireUser(request).user.id;
      const created = await apiKeys.create(userId, request.body.name, limits.apiKeysLiveMax);
      if (!created) throw ApiError.detail(400, 'validation', messages.apiKeys.tooMany);
      return created;
    },
    { access: sessionOnly },
  );

  // Revoking with a key is allowed (a script may retire its own key or a sibling): it only ever
  // takes access away. Another user's key is "not found", like a key that does not exist.
  serve(app, apiKeyRoutes.revoke, async (request) => {
    const revoked = await apiKeys.revoke(requireUser(request).user.id, request.params.uuid);
    if (!revoked) throw ApiError.notFound();
    return revoked;
  });
}
