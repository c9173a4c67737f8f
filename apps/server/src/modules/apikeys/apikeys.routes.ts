import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApiKeyRequest } from '@filerunner/protocol';
import { ApiError, parse } from '../../http/errors';
import { requireUser } from '../../http/auth';
import type { ApiKeyStore } from './apikeys.repository';

const keyParams = z.object({ uuid: z.uuid() });

export async function apiKeysRoutes(app: FastifyInstance, opts: { apiKeys: ApiKeyStore }) {
  const { apiKeys } = opts;

  app.get('/api_keys/', async (request) => apiKeys.list(requireUser(request).user.id));

  app.post('/api_keys/', async (request, reply) => {
    const { user } = requireUser(request);
    const { name } = parse(createApiKeyRequest, request.body);
    reply.code(201);
    return apiKeys.create(user.id, name);
  });

  app.post('/api_keys/:uuid/', async (request) => {
    const { user } = requireUser(request);
    const params = keyParams.safeParse(request.params);
    const revoked = params.success ? await apiKeys.revoke(user.id, params.data.uuid) : null;
    if (!revoked) throw ApiError.notFound();
    return revoked;
  });
}
