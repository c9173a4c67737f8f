import { describe, expect, it } from 'vitest';
import { allRoutes, openApiPath } from '@filerunner/protocol';
import { useTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
useTestServer((t) => ({ server } = t));

type Document = { openapi: string; paths: Record<string, Record<string, { summary: string }>> };

/** `METHOD /api/path/{param}` of every route registered under /api, in the document's spelling. */
function registered(): Set<string> {
  // Fastify answers HEAD for every GET by itself; only the calls that declare HEAD count it.
  const headDeclared = new Set(
    allRoutes.filter((r) => [r.method].flat().includes('HEAD')).map(openApiPath),
  );
  return new Set(
    server.apiRoutes
      .map(({ method, path }) => ({
        method,
        // Registered under the `/api` prefix, which the document's paths carry too.
        path: openApiPath({ path: path.replace(/^\/api/, '') }),
      }))
      .filter(({ method, path }) => method !== 'HEAD' || headDeclared.has(path))
      .map(({ method, path }) => `${method} ${path}`),
  );
}

describe('the API description', () => {
  it('serves an OpenAPI 3.1 document that has every registered route, and only those', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<Document>();
    expect(document.openapi).toBe('3.1.0');

    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect([...registered()].sort()).toEqual([...documented].sort());
    expect(documented.size).toBeGreaterThanOrEqual(allRoutes.length);
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) expect(operation.summary).toBeTruthy();
    }
  });

  it('describes request bodies and answers with their fields', async () => {
    const document = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const addGroup = document.paths['/api/contracts/{slug}/addgroup/'].post;
    expect(addGroup.tags).toEqual(['groups']);
    expect(addGroup.parameters).toContainEqual(
      expect.objectContaining({ name: 'slug', in: 'path', required: true }),
    );
    const body = addGroup.requestBody.content['application/json'].schema;
    expect(body.required).toContain('name');
    const answer = addGroup.responses['201'].content['application/json'].schema;
    expect(Object.keys(answer.properties)).toEqual(['id', 'name', 'description', 'members']);
  });

  it('has a browsable page at /api/docs', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
    const json = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json()).toMatchObject({ openapi: '3.1.0' });
  });
});
