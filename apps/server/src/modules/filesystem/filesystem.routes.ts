import type { FastifyInstance } from 'fastify';
import { defaultFilesystemConstraints, filesystemRoutes as routes } from '@filerunner/protocol';
import { serve } from '../../http/routes';

/** Public: the external package page checks names before any login. */
export async function filesystemRoutes(app: FastifyInstance) {
  serve(app, routes.constraints, async () => defaultFilesystemConstraints);
}
