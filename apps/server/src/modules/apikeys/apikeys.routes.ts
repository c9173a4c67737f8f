import type { FastifyInstance } from 'fastify';
import { apiKeyRoutes } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import type { ApiKeyStore } from './apikeys.repository';

export async function apiKeysRoutes(app: FastifyInstance, opts: { apiKeys: ApiKeyStore }) {
  const { apiKeys } = opts;

  serve(app, apiKeyRoutes.list, async (request) => apiKeys.list(requireUser(request).user.id));

  serve(app, apiKeyRoutes.create, async (request) =>
    apiKeys.create(requireUser(request).user.id, request.body.name),
  );

  // Another user's key is "not found", like a key that does not exist.
  serve(app, apiKeyRoutes.revoke, async (request) => {
    const revoked = await apiKeys.revoke(requireUser(request).user.id, request.params.uuid);
    if (!revoked) throw ApiError.notFound();
    return revoked;
  });
}
