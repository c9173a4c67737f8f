import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '@filerunner/protocol';
import { StorageError } from '../storage';
import { ApiError } from './errors';
import type { Metrics } from './metrics';

/** PostgreSQL's disk_full: a write found no space for its files. */
const DISK_FULL = '53100';

/** A call refused because the volume is full: the caller should wait, not report a bug. */
function isInsufficientStorage(error: unknown): boolean {
  if (error instanceof StorageError) return error.code === 'insufficient_storage';
  // drizzle wraps the driver's error in `cause`.
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    depth++
  ) {
    if (e.code === DISK_FULL) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Writes ApiErrors as the spec's bodies, turns Fastify's own request errors (bad JSON, wrong
 * content type, oversize body, bad form data) into 4xx with a `detail`, a full volume into 507,
 * and logs the rest as 500.
 */
export function installErrorHandler(
  app: FastifyInstance,
  metrics?: Pick<Metrics, 'storageFailed'>,
): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.body);
    const failed: unknown = error;
    if (failed instanceof StorageError) metrics?.storageFailed(failed.code);
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ detail: messages.auth.rateLimited });
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    if (isInsufficientStorage(error)) {
      request.log.warn({ err: error }, 'refused: storage is full');
      return reply.code(507).send({ detail: messages.storage.full });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Sorry, something went wrong on our side.' });
  });
}
