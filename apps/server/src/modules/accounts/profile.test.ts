import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { messages } from '@filerunner/protocol';
import { expectSandboxed } from '../../../test/sandboxed-bytes';
import {
  BASE_HEADERS,
  createUser,
  loggedInUser,
  login,
  PASSWORD,
  useTestServer,
  type Caller,
  type TestServer,
} from '../../../test/harness';
import { pngBomb } from '../../../test/png-bomb';

let server: TestServer;
let as: Caller;
useTestServer((t) => ({ server, as } = t));

function profileForm(fields: Record<string, string>, avatar?: { data: Buffer; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (avatar)
    form.append('avatar', new Blob([new Uint8Array(avatar.data)], { type: avatar.type }), 'me.png');
  return form;
}

async function updateProfile(headers: Record<string, string>, form: FormData) {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return server.app.inject({
    method: 'POST',
    url: '/api/user/',
    headers: { ...headers, 'content-type': request.headers.get('content-type')! },
    payload: body,
  });
}

const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a8' } })
    .png()
    .toBuffer();

describe('POST /user/ (profile)', () => {
  it('starts with no time zone, takes one, keeps it when none is sent and drops it when empty', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const zoneOf = async () =>
      (await server.app.inject({ method: 'GET', url: '/api/user/', headers })).json().timezone;
    // None chosen: the web app shows dates in the browser's zone, mails say UTC.
    expect(await zoneOf()).toBe('');
    const names = { first_name: 'Ann', last_name: 'Zone' };
    const set = await updateProfile(
      headers,
      profileForm({ ...names, timezone: 'America/New_York' }),
    );
    expect(set.statusCode).toBe(200);
    expect(await zoneOf()).toBe('America/New_York');
    await updateProfile(headers, profileForm(names));
    expect(await zoneOf()).toBe('America/New_York');
    await updateProfile(headers, profileForm({ ...names, timezone: '' }));
    expect(await zoneOf()).toBe('');
    const bad = await updateProfile(headers, profileForm({ ...names, timezone: 'Mars/Olympus' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ timezone: ['Unknown timezone.'] });
  });

  it('updates names, mobile (adding the +), timezone and avatar', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const response = await updateProfile(
      headers,
      profileForm(
        {
          first_name: 'Grace',
          last_name: 'Hopper',
          mobile: '14155552671',
          timezone: 'Europe/London',
        },
        { data: await png(), type: 'image/png' },
      ),
    );
    expect(response.statusCode).toBe(200);
    const me = response.json();
    expect(me).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      name: 'Grace Hopper',
      mobile: '+14155552671',
      timezone: 'Europe/London',
    });
    const avatar = await server.app.inject({ method: 'GET', url: me.avatar, headers });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/png');
    // Shown by <img> as ever; a browser that opens it as a page gets no script, no origin.
    expectSandboxed(avatar.headers);
    const summary = await server.app.inject({ method: 'GET', url: '/api/user/', headers });
    expect(summary.json().avatar).toBe(me.avatar);
    // Every signed-in request reads its caller: the photo (up to 1 MB) is not part of that read.
    const token = headers.cookie.slice(headers.cookie.indexOf('=') + 1);
    const session = await server.ctx.sessions.find(token);
    expect(session?.user).not.toHaveProperty('avatar');

    const cleared = await updateProfile(
      headers,
      profileForm({ first_name: 'Grace', last_name: 'Hopper', clear_avatar: 'true' }),
    );
    expect(cleared.json().avatar).toBeNull();
  });

  it('reports required names and a bad mobile per field', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const response = await updateProfile(
      headers,
      profileForm({ first_name: ' ', last_name: '', mobile: '999' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      first_name: [messages.profile.firstNameRequired],
      last_name: [messages.profile.lastNameRequired],
    });
    const mobile = await updateProfile(
      headers,
      profileForm({ first_name: 'A', last_name: 'B', mobile: '999' }),
    );
    expect(mobile.json()).toEqual({ mobile: [messages.profile.invalidMobile] });
  });

  it('refuses an avatar over 1 MB and one that is not PNG or JPEG', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const big = Buffer.concat([await png(), Buffer.alloc(1_100_000)]);
    const tooBig = await updateProfile(
      headers,
      profileForm({ first_name: 'A', last_name: 'B' }, { data: big, type: 'image/png' }),
    );
    expect(tooBig.statusCode, tooBig.body).toBe(400);
    expect(tooBig.json().avatar[0]).toContain(messages.profile.avatarTooLarge);
    const gif = await updateProfile(
      headers,
      profileForm(
        { first_name: 'A', last_name: 'B' },
        { data: Buffer.from('GIF89a....'), type: 'image/png' },
      ),
    );
    expect(gif.json()).toEqual({ avatar: [messages.profile.avatarType] });
  });

  it('refuses a PNG bomb and keeps avatars re-encoded, small and without metadata', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const form = (data: Buffer, type: string) =>
      profileForm({ first_name: 'A', last_name: 'B' }, { data, type });

    // 600 kB on the wire, 625 million pixels once decoded.
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(1_000_000);
    const refused = await updateProfile(headers, form(bomb, 'image/png'));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({ avatar: [messages.profile.avatarUnreadable] });
    expect(messages.profile.avatarUnreadable).toContain('50 million pixels');

    // A phone photo: large, with where it was taken in its EXIF.
    const photo = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: '#3a6' },
    })
      .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const saved = await updateProfile(headers, form(photo, 'image/jpeg'));
    expect(saved.statusCode, saved.body).toBe(200);
    const served = await server.app.inject({ method: 'GET', url: saved.json().avatar, headers });
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 384 });
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.toString('latin1')).not.toContain('PhoneMaker');
  });

  it('answers 400, not 500, to a JSON body', async () => {
    const me = await loggedInUser(server);
    const response = await as(me).post('/api/user/', { first_name: 'x' });
    expect(response.statusCode).toBe(400);
  });
});

describe('POST /user/update_settings/', () => {
  it('stores show_select_storage', async () => {
    const me = await loggedInUser(server);
    const on = await as(me).post('/api/user/update_settings/', { show_select_storage: true });
    expect(on.json().show_select_storage).toBe(true);
    const bad = await as(me).post('/api/user/update_settings/', { show_select_storage: 'yes' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /user/update_password/', () => {
  const change = (headers: Record<string, string>, payload: object) =>
    server.app.inject({ method: 'POST', url: '/api/user/update_password/', headers, payload });

  it('checks the current password, the rules and the confirmation', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    expect((await change(headers, {})).json()).toEqual({
      password_current: [messages.password.required],
      password_new: [messages.password.required],
      password_new_confirm: [messages.password.required],
    });
    expect(
      (
        await change(headers, {
          password_current: 'wrong',
          password_new: 'New-pass7!x',
          password_new_confirm: 'New-pass7!x',
        })
      ).json(),
    ).toEqual({
      password_current: [messages.password.currentWrong],
    });
    const weak = await change(headers, {
      password_current: PASSWORD,
      password_new: 'alllowercase11',
      password_new_confirm: 'x',
    });
    expect(weak.json().password_new[0]).toMatch(/uppercase/);
    expect(weak.json().password_new[0]).toMatch(/no two identical digits/);
    expect(weak.json().password_new_confirm).toEqual([messages.password.mismatch]);
  });

  it('changes it, ends every session and mails the owner', async () => {
    const user = await createUser(server);
    const headers = await login(server, user.email);
    const other = await login(server, user.email);
    const ok = await change(headers, {
      password_current: PASSWORD,
      password_new: 'New-pass7!x',
      password_new_confirm: 'New-pass7!x',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: messages.password.updated });
    for (const h of [headers, other]) {
      expect(
        (await server.app.inject({ method: 'GET', url: '/api/user/', headers: h })).statusCode,
      ).toBe(401);
    }
    await login(server, user.email, 'New-pass7!x');
    await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(user.email) && /changed/.test(m.subject ?? ''),
    );
  });

  it('needs a login', async () => {
    expect((await change(BASE_HEADERS, {})).statusCode).toBe(401);
  });
});
