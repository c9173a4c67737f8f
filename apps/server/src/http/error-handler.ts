import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '@filerunner/protocol';
import { ApiError } from './errors';

/**
 * Writes ApiErrors as the spec's bodies, turns Fastify's own request errors (bad JSON, wrong
 * content type, oversize body, bad form data) into 4xx with a `detail`, and logs the rest as 500.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.body);
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ detail: messages.auth.rateLimited });
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Sorry, something went wrong on our side.' });
  });
}
