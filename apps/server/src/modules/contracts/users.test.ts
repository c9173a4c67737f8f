import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminMessages, messages } from '@filerunner/protocol';
import {
  createUser,
  linkIn,
  login,
  uniqueEmail,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packageRecipients, packages, storageAppGroups, users } from '../../db/schema';
import { addMember } from './contracts.service';

let server: TestServer;
let fx: ContractFixture;
useFixtureServer((t) => ({ server, fx } = t));

const api = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
  server.app.inject({
    method,
    url: `/api/contracts/${fx.contract.slug}/${path}`,
    headers: fx.admin.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('adding users', () => {
  it('invites a new address by mail, with permissions and groups', async () => {
    const group = (await api('POST', 'addgroup/', { name: 'Editors', description: 'cut' })).json();
    const email = uniqueEmail('New.Person');
    const added = await api('POST', 'users/', {
      first_name: 'New',
      last_name: 'Person',
      email: email.toUpperCase(),
      mobile: '14155552671',
      send: true,
      add_to_master_group: true,
      groups: [group.id],
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      email: email.toLowerCase(),
      name: 'New Person',
      mobile: '+14155552671',
      send: true,
      admin: false,
      master_group: true,
      activated: false,
      groups: [{ id: group.id, name: 'Editors' }],
    });
    const mail = await server.waitForMail((m) =>
      JSON.stringify(m.to).includes(email.toLowerCase()),
    );
    expect(linkIn(mail)).toContain('/activate/');
    expect(mail.subject).toContain(fx.contract.name);
  });

  it('adds an existing account as a membership and tells them', async () => {
    const existing = await createUser(server);
    const added = await api('POST', 'users/', {
      first_name: 'X',
      last_name: 'Y',
      email: existing.email,
    });
    expect(added.statusCode).toBe(201);
    // The contract's own view: the name it gave, and invited until the person signs in again.
    expect(added.json()).toMatchObject({
      id: existing.id,
      name: 'X Y',
      mobile: null,
      activated: false,
    });
    await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(existing.email) && /added to/.test(m.subject ?? ''),
    );
    const again = await api('POST', 'users/', {
      first_name: 'X',
      last_name: 'Y',
      email: existing.email,
    });
    expect(again.json()).toEqual({ email: [adminMessages.userExists] });
  });

  it('counts a person already signed in active in a second contract once they use it', async () => {
    // Active in another contract, with a session from before this contract added them.
    const person = await createUser(server, { contract: true, send: true });
    const session = await login(server, person.email);
    const added = await api('POST', 'users/', {
      first_name: 'Sam',
      last_name: 'Second',
      email: person.email,
    });
    expect(added.statusCode, added.body).toBe(201);
    const status = async () =>
      ((await api('GET', 'permissions/')).json() as Array<{ id: number; activated: boolean }>).find(
        (u) => u.id === person.id,
      )?.activated;
    // Invited until the person does something, as a new address would be...
    expect(await status()).toBe(false);
    // ...then active from the next page they open, without signing in again.
    const user = await server.app.inject({ method: 'GET', url: '/api/user/', headers: session });
    expect(user.statusCode).toBe(200);
    expect(await status()).toBe(true);
  });

  it('reports each bad field', async () => {
    const response = await api('POST', 'users/', {
      first_name: '',
      email: 'not-an-email',
      mobile: '12',
      groups: [999999],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      first_name: [adminMessages.required],
      last_name: [adminMessages.required],
      email: [adminMessages.invalidEmail],
    });
    const mobile = await api('POST', 'users/', {
      first_name: 'A',
      last_name: 'B',
      email: uniqueEmail(),
      mobile: '12',
    });
    expect(mobile.json()).toEqual({ mobile: [messages.profile.invalidMobile] });
    const group = await api('POST', 'users/', {
      first_name: 'A',
      last_name: 'B',
      email: uniqueEmail(),
      groups: [999999],
    });
    expect(group.json()).toEqual({ groups: [adminMessages.unknownGroup] });
  });

  it('adds external users by email and mobile, without activation mail or send permission', async () => {
    const a = uniqueEmail('partner');
    const b = uniqueEmail('partner');
    const response = await api('POST', 'users/external/', [
      { email: a, mobile: '+447911123456' },
      { email: b, mobile: '' },
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toHaveLength(2);
    expect(response.json()[0]).toMatchObject({ external: true, send: false });
    const bad = await api('POST', 'users/external/', [{ email: uniqueEmail(), mobile: '12' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail[0]).toContain(messages.profile.invalidMobile);
    // A body the schema refuses answers in the same shape: the dialog reads `detail`.
    const refused = await api('POST', 'users/external/', [{ email: 'not an address' }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: [adminMessages.invalidEmail] });
    await server.outbox.drain();
    expect(JSON.stringify((await server.mails()).map((m) => m.to))).not.toContain(a);
  });

  it('adds a new address once when several admins add it at once, the rest told it exists', async () => {
    for (const [path, body] of [
      ['users/external/', () => [{ email: 'together.external@example.com' }]],
      ['users/', () => ({ first_name: 'A', last_name: 'B', email: 'together.user@example.com' })],
    ] as const) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', path, body())));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, path).toEqual([201, 400, 400, 400, 400]);
      const email =
        path === 'users/' ? 'together.user@example.com' : 'together.external@example.com';
      expect(await server.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(
        1,
      );
    }
  });
});

describe('editing and removing users', () => {
  it('changes permissions and the name, but an admin cannot demote themselves', async () => {
    const id = fx.receiver.user.id;
    const updated = await api('POST', `permissions/${id}/`, {
      id,
      send: true,
      admin: false,
      enabled: false,
    });
    expect(updated.json()).toMatchObject({ send: true, admin: false, enabled: false });
    const renamed = await api('POST', `userdetails/${id}/`, { name: 'Rae  Renamed Person' });
    expect(renamed.json()).toMatchObject({ first_name: 'Rae', last_name: 'Renamed Person' });
    await api('POST', `permissions/${id}/`, { id, send: false, admin: false, enabled: true });

    const self = fx.admin.user.id;
    const demote = await api('POST', `permissions/${self}/`, {
      id: self,
      send: true,
      admin: false,
      enabled: true,
    });
    expect(demote.json()).toEqual({ admin: [adminMessages.cannotDemoteSelf] });
    expect(
      (
        await api('POST', `permissions/${fx.outsider.user.id}/`, {
          send: true,
          admin: false,
          enabled: true,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a disabled member loses the contract at once', async () => {
    const user = await createUser(server);
    await addMember(server.ctx, fx.contract.id, user.id, {});
    const headers = await login(server, user.email);
    await api('POST', `permissions/${user.id}/`, { send: false, admin: false, enabled: false });
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/contracts/', headers })).json(),
    ).toEqual([]);
  });

  it('removing a user keeps the packages they sent and received', async () => {
    const leaver = await createUser(server);
    await addMember(server.ctx, fx.contract.id, leaver.id, { send: true });
    const [pkg] = await server.ctx.db
      .insert(packages)
      .values({
        slug: `keep-${leaver.id}`,
        contractId: fx.contract.id,
        senderId: leaver.id,
        name: 'Kept',
        // Sent: a package still uploading is listed nowhere.
        status: 'complete',
        validFrom: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    await server.ctx.db
      .insert(packageRecipients)
      .values({ packageId: pkg!.id, userId: fx.sender.user.id, email: fx.sender.user.email });

    expect((await api('POST', `removeuser/${leaver.id}/`)).statusCode).toBe(204);
    const users = (await api('GET', 'permissions/')).json() as { id: number }[];
    expect(users.map((u) => u.id)).not.toContain(leaver.id);
    const [kept] = await server.ctx.db.select().from(packages).where(eq(packages.id, pkg!.id));
    expect(kept).toMatchObject({ name: 'Kept', senderId: leaver.id });
    const activity = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${fx.contract.slug}/activity/?text=Kept`,
      headers: fx.admin.headers,
    });
    expect(activity.json().packages[0]).toMatchObject({
      name: 'Kept',
      recipients: [{ email: fx.sender.user.email }],
    });

    expect((await api('POST', `removeuser/${leaver.id}/`)).statusCode).toBe(404);
    expect((await api('POST', `removeuser/${fx.admin.user.id}/`)).statusCode).toBe(400);
  });
});

describe('groups', () => {
  it('creates, edits, fills, empties and deletes a group; the master group lists its members', async () => {
    const created = await api('POST', 'addgroup/', { name: 'Crew', members: [fx.sender.user.id] });
    expect(created.json()).toMatchObject({ name: 'Crew', members: [{ id: fx.sender.user.id }] });
    const id = created.json().id;
    expect((await api('POST', 'addgroup/', { name: ' ' })).json()).toEqual({
      name: [adminMessages.groupNameRequired],
    });
    expect(
      (await api('POST', 'addgroup/', { name: 'Bad', members: [fx.outsider.user.id] })).json(),
    ).toEqual({ members: [adminMessages.notAMember] });

    expect(
      (await api('POST', `editgroup/${id}/`, { name: 'Crew 2', description: 'd' })).json(),
    ).toMatchObject({ name: 'Crew 2', description: 'd' });
    const filled = await api('POST', `groups/${id}/`, {
      group_id: id,
      members: [fx.receiver.user.id],
    });
    expect(
      filled
        .json()
        .members.map((m: { id: number }) => m.id)
        .sort(),
    ).toEqual([fx.sender.user.id, fx.receiver.user.id].sort());
    const emptied = await api('POST', `groups/${id}/remove/`, {
      members: [fx.sender.user.id, fx.receiver.user.id],
    });
    expect(emptied.json().members).toEqual([]);

    const master = await api('POST', 'mastermembers/add/', { master_members: [fx.sender.user.id] });
    expect(master.json().members.map((m: { id: number }) => m.id)).toContain(fx.sender.user.id);
    const listed = (await api('GET', 'groups/')).json();
    expect(listed.master_group.members.map((m: { id: number }) => m.id)).toContain(
      fx.sender.user.id,
    );
    const out = await api('POST', 'mastermembers/', { master_members: [fx.sender.user.id] });
    expect(out.json().members.map((m: { id: number }) => m.id)).not.toContain(fx.sender.user.id);

    expect((await api('POST', `removegroup/${id}/`)).statusCode).toBe(204);
    expect((await api('POST', `removegroup/${id}/`)).statusCode).toBe(404);
    expect((await api('POST', 'editgroup/abc/', { name: 'x' })).statusCode).toBe(404);
  });
});

describe('settings', () => {
  it('stores the security and notification settings, validated per spec', async () => {
    const saved = await api('POST', 'settings/', {
      can_add_ad_hoc: true,
      pin_verification: 'all',
      notifications: [{ name: 'Ops', email: 'ops@example.com', enabled: true }],
      can_extend_expiry: true,
      number_of_upload_workers: 20,
    });
    expect(saved.json()).toMatchObject({ detail: adminMessages.settingsUpdated });
    const [contract] = (
      await server.app.inject({ method: 'GET', url: '/api/contracts/', headers: fx.admin.headers })
    ).json();
    expect(contract.settings).toEqual({
      can_add_ad_hoc: true,
      pin_verification: 'all',
      notifications: [{ name: 'Ops', email: 'ops@example.com', enabled: true }],
      can_extend_expiry: true,
      number_of_upload_workers: 20,
      use_slab_files: false,
    });
    const missing = await api('POST', 'settings/', { notifications: [{ name: 'Ops', email: '' }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().notifications).toEqual([adminMessages.notificationFields]);
    expect((await api('POST', 'settings/', { pin_verification: 'sometimes' })).statusCode).toBe(
      400,
    );
    expect((await api('POST', 'settings/', { number_of_upload_workers: 51 })).statusCode).toBe(400);
  });

  it('keeps the storage locations as a whole list, each with a container in storage', async () => {
    const created = await api('POST', 'settings/', {
      storage_app_groups: [{ name: 'London' }, { name: 'Sydney' }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const groups = created.json().storage_app_groups as { id: number; name: string }[];
    expect(groups.map((g) => g.name)).toEqual(['London', 'Sydney']);
    const rows = await server.ctx.db.select().from(storageAppGroups);
    for (const row of rows) {
      // The container exists: a signed PUT into it is stored.
      const url = server.ctx.storage.signTempUrl({
        method: 'PUT',
        container: row.container,
        key: 'probe',
        expires: Math.floor(Date.now() / 1000) + 60,
      }).url;
      const put = await server.app.inject({
        method: 'PUT',
        url: new URL(url).pathname + new URL(url).search,
        payload: 'x',
      });
      expect(put.statusCode).toBe(201);
    }

    const london = groups.find((g) => g.name === 'London')!;
    const renamed = await api('POST', 'settings/', {
      storage_app_groups: [{ id: london.id, name: 'London 2' }],
    });
    expect(renamed.json().storage_app_groups).toEqual([{ id: london.id, name: 'London 2' }]);
    const [contract] = (
      await server.app.inject({ method: 'GET', url: '/api/contracts/', headers: fx.admin.headers })
    ).json();
    expect(contract.storage_app_groups).toEqual([{ id: london.id, name: 'London 2' }]);

    expect(
      (
        await api('POST', 'settings/', { storage_app_groups: [{ name: 'A' }, { name: 'a ' }] })
      ).json(),
    ).toEqual({
      storage_app_groups: [adminMessages.storageGroupDuplicate],
    });
    expect(
      (await api('POST', 'settings/', { storage_app_groups: [{ name: ' ' }] })).json(),
    ).toEqual({
      storage_app_groups: [adminMessages.storageGroupNameRequired],
    });
    expect(
      (await api('POST', 'settings/', { storage_app_groups: [{ id: 999999, name: 'X' }] }))
        .statusCode,
    ).toBe(400);
  });
});
