import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@filerunner/protocol';
import { apiKeys } from '../../db/schema';
import { caller, loggedInUser, startTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let as: ReturnType<typeof caller>;
beforeAll(async () => {
  server = await startTestServer();
  as = caller(server);
});
afterAll(() => server.close());

describe('API keys', () => {
  it('creates a key shown once, stored only as a hash, listed without it', async () => {
    const me = await loggedInUser(server);
    const created = await as(me).post('/api/api_keys/', { name: 'CI upload' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ name: 'CI upload', revoked: false });
    expect(body.key).toMatch(/^fr_[\w-]{40,}$/);

    const list = await as(me).get('/api/api_keys/');
    expect(list.json()).toEqual([
      {
        uuid: body.uuid,
        name: 'CI upload',
        created_timestamp: body.created_timestamp,
        revoked: false,
      },
    ]);
    const [row] = await server.ctx.db.select().from(apiKeys).where(eq(apiKeys.uuid, body.uuid));
    expect(row!.keyHash).not.toContain(body.key);
    expect(JSON.stringify(row)).not.toContain(body.key);
  });

  it('needs a name', async () => {
    const response = await as(await loggedInUser(server)).post('/api/api_keys/', { name: '  ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ name: [messages.apiKeys.nameRequired] });
  });

  it('acts as its user without a cookie or version header, and is refused at once when revoked', async () => {
    const owner = await loggedInUser(server, { contract: true, send: true });
    const { key, uuid } = (await as(owner).post('/api/api_keys/', { name: 'script' })).json();
    const byKey = { headers: { authorization: `Api-Key ${key}` } };

    const me = await as(byKey).get('/api/user/');
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(owner.user.email);
    expect((await as(byKey).get('/api/contracts/')).json()).toHaveLength(1);
    const settings = await as(byKey).post('/api/user/update_settings/', {
      show_select_storage: true,
    });
    expect(settings.statusCode).toBe(200);

    const revoked = await as(owner).post(`/api/api_keys/${uuid}/`);
    expect(revoked.json()).toMatchObject({ uuid, revoked: true });
    const after = await as(byKey).get('/api/user/');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: messages.auth.invalidApiKey });
  });

  it("cannot revoke another user's key, and needs a login", async () => {
    const owner = await loggedInUser(server);
    const other = await loggedInUser(server);
    const { uuid } = (await as(owner).post('/api/api_keys/', { name: 'mine' })).json();
    expect((await as(other).post(`/api/api_keys/${uuid}/`)).statusCode).toBe(404);
    expect((await as(other).post('/api/api_keys/not-a-uuid/')).statusCode).toBe(404);
    expect((await as(null).get('/api/api_keys/')).statusCode).toBe(401);
    expect((await as(null).post('/api/api_keys/', { name: 'x' })).statusCode).toBe(401);
    const bogusKey = { headers: { authorization: 'Api-Key fr_bogus' } };
    expect((await as(bogusKey).get('/api/user/')).statusCode).toBe(401);
  });
});
