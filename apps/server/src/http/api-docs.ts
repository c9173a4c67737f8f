import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { api, openApiDocument } from '@filerunner/protocol';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The API's OpenAPI 3.1 document, generated from the route table once at start. */
export const apiDocument = openApiDocument(api, { title: 'FileRunner API', version });

/**
 * The API described for scripted users and integrators: the document at `/api/openapi.json`
 * and a browsable page at `/api/docs`. Both are public: they describe calls, not data.
 */
export async function apiDocs(app: FastifyInstance): Promise<void> {
  app.get('/api/openapi.json', async () => apiDocument);
  await app.register(swagger, {
    mode: 'static',
    specification: { document: apiDocument as never },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI sets a few inline styles, and over plain HTTP (the embedded default) upgrading
    // its requests to https would break "Try it out", as it would the app's own calls.
    transformStaticCSP: (header) =>
      header
        .replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'")
        .replace(/ ?upgrade-insecure-requests;?/, ''),
    // The public validator badge would send the document to a third party.
    uiConfig: { deepLinking: true, validatorUrl: null },
  });
}
