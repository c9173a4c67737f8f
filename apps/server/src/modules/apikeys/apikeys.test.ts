import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@filerunner/protocol';
import { apiKeys } from '../../db/schema';
import {
  BASE_HEADERS,
  createUser,
  login,
  startTestServer,
  type TestServer,
} from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('API keys', () => {
  it('creates a key shown once, stored only as a hash, listed without it', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/api_keys/',
      headers,
      payload: { name: 'CI upload' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ name: 'CI upload', revoked: false });
    expect(body.key).toMatch(/^fr_[\w-]{40,}$/);

    const list = await server.app.inject({ method: 'GET', url: '/api/api_keys/', headers });
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
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/api_keys/',
      headers,
      payload: { name: '  ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ name: [messages.apiKeys.nameRequired] });
  });

  it('acts as its user without a cookie or version header, and is refused at once when revoked', async () => {
    const user = await createUser(server, { contract: true, send: true });
    const headers = await login(server, user.email);
    const { key, uuid } = (
      await server.app.inject({
        method: 'POST',
        url: '/api/api_keys/',
        headers,
        payload: { name: 'script' },
      })
    ).json();
    const byKey = { authorization: `Api-Key ${key}` };

    const me = await server.app.inject({ method: 'GET', url: '/api/user/', headers: byKey });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);
    const contracts = await server.app.inject({
      method: 'GET',
      url: '/api/contracts/',
      headers: byKey,
    });
    expect(contracts.json()).toHaveLength(1);
    const settings = await server.app.inject({
      method: 'POST',
      url: '/api/user/update_settings/',
      headers: byKey,
      payload: { show_select_storage: true },
    });
    expect(settings.statusCode).toBe(200);

    const revoked = await server.app.inject({
      method: 'POST',
      url: `/api/api_keys/${uuid}/`,
      headers,
    });
    expect(revoked.json()).toMatchObject({ uuid, revoked: true });
    const after = await server.app.inject({ method: 'GET', url: '/api/user/', headers: byKey });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: messages.auth.invalidApiKey });
  });

  it("cannot revoke another user's key, and needs a login", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const ownerHeaders = await login(server, owner.email);
    const { uuid } = (
      await server.app.inject({
        method: 'POST',
        url: '/api/api_keys/',
        headers: ownerHeaders,
        payload: { name: 'mine' },
      })
    ).json();
    const otherHeaders = await login(server, other.email);
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: `/api/api_keys/${uuid}/`,
          headers: otherHeaders,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/api_keys/not-a-uuid/',
          headers: otherHeaders,
        })
      ).statusCode,
    ).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/api_keys/' })).statusCode).toBe(
      401,
    );
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/api_keys/',
          headers: BASE_HEADERS,
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: '/api/user/',
          headers: { authorization: 'Api-Key fr_bogus' },
        })
      ).statusCode,
    ).toBe(401);
  });
});
