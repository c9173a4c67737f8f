import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits, messages } from '@filerunner/protocol';
import { apiKeys } from '../../db/schema';
import {
  linkIn,
  loggedInUser,
  login,
  PASSWORD,
  useTestServer,
  type Caller,
  type TestServer,
} from '../../../test/harness';

let server: TestServer;
let as: Caller;
useTestServer((t) => ({ server, as } = t));

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

  it('holds a user to a cap of valid keys, with a message saying to revoke one', async () => {
    const me = await loggedInUser(server);
    const create = (name: string) => as(me).post('/api/api_keys/', { name });
    const made = [];
    for (let i = 1; i < limits.apiKeysLiveMax; i++) made.push((await create(`Key ${i}`)).json());
    // The last places asked for together: one is made, the others refused.
    const together = await Promise.all([1, 2, 3].map((i) => create(`Together ${i}`)));
    expect(together.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const refused = await create('One too many');
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { detail: messages.apiKeys.tooMany },
    ]);
    expect(messages.apiKeys.tooMany).toContain(String(limits.apiKeysLiveMax));

    // Someone else's keys do not count; a revoked key makes room.
    const other = await loggedInUser(server);
    expect((await as(other).post('/api/api_keys/', { name: 'Mine' })).statusCode).toBe(201);
    expect((await as(me).post(`/api/api_keys/${made[0].uuid}/`)).statusCode).toBe(200);
    expect((await create('After revoking')).statusCode).toBe(201);
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

const byKey = (key: string) => ({ headers: { authorization: `Api-Key ${key}` } });
const NEW_PASSWORD = 'New-pass7!x';

describe('API keys and the session they come from', () => {
  it('cannot create a key with a key, whatever the body, but may list and revoke', async () => {
    const owner = await loggedInUser(server);
    const { key, uuid } = (await as(owner).post('/api/api_keys/', { name: 'script' })).json();

    for (const body of [{ name: 'child' }, { name: '' }, undefined]) {
      const refused = await as(byKey(key)).post('/api/api_keys/', body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: messages.apiKeys.sessionRequired });
    }
    const listed = await as(byKey(key)).get('/api/api_keys/');
    expect(listed.json()).toEqual([expect.objectContaining({ uuid, revoked: false })]);

    const revoked = await as(byKey(key)).post(`/api/api_keys/${uuid}/`);
    expect(revoked.json()).toMatchObject({ uuid, revoked: true });
    expect((await as(byKey(key)).get('/api/user/')).statusCode).toBe(401);
  });

  it("are revoked by the owner's password change, at once and in the list, and the mail says so", async () => {
    const owner = await loggedInUser(server);
    const bystander = await loggedInUser(server);
    const keys = [
      (await as(owner).post('/api/api_keys/', { name: 'one' })).json(),
      (await as(owner).post('/api/api_keys/', { name: 'two' })).json(),
    ];
    const theirs = (await as(bystander).post('/api/api_keys/', { name: 'theirs' })).json();
    expect((await as(byKey(keys[0].key)).get('/api/user/')).statusCode).toBe(200);

    const changed = await as(owner).post('/api/user/update_password/', {
      password_current: PASSWORD,
      password_new: NEW_PASSWORD,
      password_new_confirm: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);

    for (const { key } of keys) {
      const refused = await as(byKey(key)).get('/api/user/');
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: messages.auth.invalidApiKey });
    }
    expect((await as(byKey(theirs.key)).get('/api/user/')).statusCode).toBe(200);
    const again = { headers: await login(server, owner.user.email, NEW_PASSWORD) };
    const list = (await as(again).get('/api/api_keys/')).json();
    expect(list).toHaveLength(2);
    expect(list.every((k: { revoked: boolean }) => k.revoked)).toBe(true);

    const mail = await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(owner.user.email) && /changed/i.test(m.subject ?? ''),
    );
    expect(mail.text).toContain('Your 2 API keys were revoked too');
  });

  it('are revoked by a password reset', async () => {
    const owner = await loggedInUser(server);
    const { key } = (await as(owner).post('/api/api_keys/', { name: 'script' })).json();
    await as(null).post('/api/user/forgot_password/', { email: owner.user.email });
    const resetMail = await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(owner.user.email) && /reset/i.test(m.subject ?? ''),
    );
    const [uid, token] = new URL(linkIn(resetMail)).pathname.split('/').slice(2);
    const reset = await as(null).post('/api/user/reset_password/', {
      uid,
      token,
      password: NEW_PASSWORD,
      password_confirm: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);

    const refused = await as(byKey(key)).get('/api/user/');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: messages.auth.invalidApiKey });
    const mail = await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(owner.user.email) && /changed/i.test(m.subject ?? ''),
    );
    expect(mail.text).toContain('Your API key was revoked too');
  });
});
