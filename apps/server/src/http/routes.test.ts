import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, idParam } from '@filerunner/protocol';
import { installErrorHandler } from './error-handler';
import { ApiError } from './errors';
import { serve } from './routes';

const item = z.object({ id: z.number(), name: z.string() });
const routes = {
  get: defineRoute({
    method: 'GET',
    path: '/items/:id/',
    summary: 'one item',
    auth: 'public',
    params: z.object({ id: idParam }),
    query: z.object({ full: z.enum(['yes', 'no']).default('no') }),
    status: 200,
    response: item,
  }),
  add: defineRoute({
    method: 'POST',
    path: '/items/',
    summary: 'add',
    auth: 'user',
    body: z.object({ name: z.string().min(1, 'Name is required') }),
    status: 201,
    response: item,
  }),
  remove: defineRoute({
    method: 'POST',
    path: '/items/:id/remove/',
    summary: 'remove',
    auth: 'public',
    params: z.object({ id: idParam }),
    status: 204,
    response: null,
  }),
  rename: defineRoute({
    method: 'POST',
    path: '/shelves/:shelf/rename/',
    summary: 'rename a shelf only its keeper may touch',
    auth: 'public',
    params: z.object({ shelf: z.string() }),
    body: z.object({ name: z.string().min(1, 'Name is required') }),
    status: 200,
    response: item,
  }),
  list: defineRoute({
    method: 'POST',
    path: '/lists/',
    summary: 'a list with its own error shape',
    auth: 'public',
    body: z.array(z.string().min(1, 'empty entry')),
    status: 200,
    response: z.array(z.string()),
  }),
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  installErrorHandler(app);
  app.decorateRequest('principal', null);
  serve(app, routes.get, async (request) => ({
    id: request.params.id,
    name: `item ${request.query.full}`,
    // Not in the response schema: it must never leave the server.
    secret: 'hash',
  }));
  serve(app, routes.add, async (request) => ({ id: 1, name: request.body.name }));
  serve(app, routes.remove, async () => undefined);
  serve(app, routes.list, async (request) => request.body, {
    invalidBody: (error) => ApiError.detail(400, 'validation', error.issues[0]!.message),
  });
  serve(
    app,
    routes.rename,
    async (request, _reply, shelf) => ({ id: shelf.id, name: request.body.name }),
    {
      access: async (_request: FastifyRequest, params: { shelf: string }) => {
        if (params.shelf !== 'mine') throw ApiError.notFound();
        return { id: 9 };
      },
    },
  );
  await app.ready();
});
afterAll(() => app.close());

describe('serving a call of the route table', () => {
  it('passes validated, typed params and query and serialises only the schema fields', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/42/?full=yes' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 42, name: 'item yes' });
    expect(response.body).not.toContain('hash');
  });

  it('answers 404 for a path parameter that names nothing', async () => {
    for (const id of ['abc', '0', '99999999999', '1e3']) {
      const response = await app.inject({ method: 'GET', url: `/items/${id}/` });
      expect(response.statusCode, id).toBe(404);
    }
  });

  it('answers 400 with field errors for a bad query', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/1/?full=maybe' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(['full']);
  });

  it('requires a signed-in user before it looks at the body', async () => {
    const response = await app.inject({ method: 'POST', url: '/items/', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('uses the table status, and an empty body for 204', async () => {
    const response = await app.inject({ method: 'POST', url: '/items/5/remove/' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  });

  it('answers a refused body in the shape the call asks for', async () => {
    const response = await app.inject({ method: 'POST', url: '/lists/', payload: ['a', ''] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'empty entry' });
  });

  it('settles who may call before the body, and hands the handler what it granted', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/shelves/theirs/rename/',
      payload: {},
    });
    expect(refused.statusCode).toBe(404);
    const invalid = await app.inject({
      method: 'POST',
      url: '/shelves/mine/rename/',
      payload: { name: '' },
    });
    expect(invalid.json()).toEqual({ name: ['Name is required'] });
    // A missing field says so; a field of the wrong type says what was expected instead.
    const missing = await app.inject({ method: 'POST', url: '/shelves/mine/rename/', payload: {} });
    expect(missing.json()).toEqual({ name: ['This field is required.'] });
    const wrongType = await app.inject({
      method: 'POST',
      url: '/shelves/mine/rename/',
      payload: { name: 42 },
    });
    expect(wrongType.json()).toEqual({ name: ['Invalid input: expected string, received number'] });
    const renamed = await app.inject({
      method: 'POST',
      url: '/shelves/mine/rename/',
      payload: { name: 'Top' },
    });
    expect(renamed.json()).toEqual({ id: 9, name: 'Top' });
  });
});
