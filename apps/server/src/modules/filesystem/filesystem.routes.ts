import type { FastifyInstance } from 'fastify';
import { defaultFilesystemConstraints } from '@filerunner/protocol';

/** Public: the external package page checks names before any login. */
export async function filesystemRoutes(app: FastifyInstance) {
  app.get('/filesystem/constraints/', async () => defaultFilesystemConstraints);
}
