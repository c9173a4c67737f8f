import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from './contracts.service';
import {
  BASE_HEADERS,
  contractFixture,
  createUser,
  startTestServer,
  type TestServer,
} from '../../../test/harness';

let server: TestServer;
let fx: Awaited<ReturnType<typeof contractFixture>>;
beforeAll(async () => {
  server = await startTestServer();
  fx = await contractFixture(server);
});
afterAll(() => server.close());

type Ids = { user: number; group: number };
type Call = {
  method: 'GET' | 'POST' | 'PATCH';
  url: (slug: string, ids: Ids) => string;
  body?: unknown;
};

/** Every admin-only call of the Users, Groups, Settings, Activity and branding screens. */
const ADMIN_CALLS: Call[] = [
  { method: 'GET', url: (s) => `/api/contracts/${s}/permissions/` },
  { method: 'GET', url: (s) => `/api/contracts/${s}/groups/` },
  { method: 'POST', url: (s) => `/api/contracts/${s}/settings/`, body: { can_add_ad_hoc: true } },
  {
    method: 'POST',
    url: (s, i) => `/api/contracts/${s}/userdetails/${i.user}/`,
    body: { name: 'New Name' },
  },
  {
    method: 'POST',
    url: (s, i) => `/api/contracts/${s}/permissions/${i.user}/`,
    body: { send: true, admin: false, enabled: true },
  },
  {
    method: 'POST',
    url: (s) => `/api/contracts/${s}/users/`,
    body: { first_name: 'N', last_name: 'U', email: 'matrix-new@example.com' },
  },
  {
    method: 'POST',
    url: (s) => `/api/contracts/${s}/users/external/`,
    body: [{ email: 'matrix-ext@example.com', mobile: '+14155552671' }],
  },
  { method: 'POST', url: (s) => `/api/contracts/${s}/addgroup/`, body: { name: 'Matrix group' } },
  {
    method: 'POST',
    url: (s, i) => `/api/contracts/${s}/editgroup/${i.group}/`,
    body: { name: 'Renamed' },
  },
  {
    method: 'POST',
    url: (s, i) => `/api/contracts/${s}/groups/${i.group}/`,
    body: (i: Ids) => ({ members: [i.user] }),
  },
  {
    method: 'POST',
    url: (s, i) => `/api/contracts/${s}/groups/${i.group}/remove/`,
    body: (i: Ids) => ({ members: [i.user] }),
  },
  {
    method: 'POST',
    url: (s) => `/api/contracts/${s}/mastermembers/add/`,
    body: (i: Ids) => ({ master_members: [i.user] }),
  },
  {
    method: 'POST',
    url: (s) => `/api/contracts/${s}/mastermembers/`,
    body: (i: Ids) => ({ master_members: [i.user] }),
  },
  { method: 'POST', url: (s) => `/api/contracts/${s}/activity/csv/`, body: { report_period: 7 } },
  { method: 'GET', url: (s) => `/api/packages/${s}/activity/` },
  { method: 'PATCH', url: (s) => `/api/projects/${s}/`, body: { colour: 'teal' } },
  { method: 'POST', url: (s, i) => `/api/contracts/${s}/removegroup/${i.group}/` },
  { method: 'POST', url: (s, i) => `/api/contracts/${s}/removeuser/${i.user}/` },
];

async function call(
  c: Call,
  headers: Record<string, string>,
  ids: { user: number; group: number },
) {
  return server.app.inject({
    method: c.method,
    url: c.url(fx.contract.slug, ids),
    headers,
    ...(c.body === undefined
      ? {}
      : { payload: (typeof c.body === 'function' ? c.body(ids) : c.body) as object }),
  });
}

describe('permission matrix', () => {
  it('refuses anonymous callers (401), outsiders (404), receive-only users and senders (403), and lets the admin through', async () => {
    const group = (
      await server.app.inject({
        method: 'POST',
        url: `/api/contracts/${fx.contract.slug}/addgroup/`,
        headers: fx.admin.headers,
        payload: { name: 'G' },
      })
    ).json();
    // A member of its own, so that removing them leaves the fixture's callers in place.
    const subject = await createUser(server);
    await addMember(server.ctx, fx.contract.id, subject.id, {});
    const ids = { user: subject.id, group: group.id };
    for (const c of ADMIN_CALLS) {
      const label = `${c.method} ${c.url('{slug}', ids)}`;
      expect((await call(c, BASE_HEADERS, ids)).statusCode, `anonymous ${label}`).toBe(401);
      expect((await call(c, fx.outsider.headers, ids)).statusCode, `outsider ${label}`).toBe(404);
      expect((await call(c, fx.receiver.headers, ids)).statusCode, `receive-only ${label}`).toBe(
        403,
      );
      expect((await call(c, fx.sender.headers, ids)).statusCode, `sender ${label}`).toBe(403);
      const ok = await call(c, fx.admin.headers, ids);
      expect(ok.statusCode, `admin ${label}: ${ok.body}`).toBeLessThan(300);
    }
  });

  it('lets every member read recipients and brandings, but not outsiders or anonymous callers', async () => {
    const url = `/api/projects/${fx.contract.slug}/`;
    await server.app.inject({
      method: 'PATCH',
      url,
      headers: fx.admin.headers,
      payload: { name: 'Brand' },
    });
    for (const who of [fx.admin, fx.sender, fx.receiver]) {
      expect(
        (
          await server.app.inject({
            method: 'GET',
            url: `/api/contracts/${fx.contract.slug}/recipients/`,
            headers: who.headers,
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await server.app.inject({
            method: 'GET',
            url: `/api/projects/${fx.contract.slug}/`,
            headers: who.headers,
          })
        ).statusCode,
      ).toBe(200);
    }
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/contracts/${fx.contract.slug}/recipients/`,
          headers: fx.outsider.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/projects/${fx.contract.slug}/`,
          headers: fx.outsider.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/contracts/${fx.contract.slug}/recipients/`,
        })
      ).statusCode,
    ).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/projects/' })).statusCode).toBe(
      401,
    );
  });
});
