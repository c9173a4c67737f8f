import { describe, expect, it } from 'vitest';
import { addMember } from './contracts.service';
import {
  createUser,
  useFixtureServer,
  type Caller,
  type ContractFixture,
  type Method,
  type TestServer,
  type Who,
} from '../../../test/harness';

let server: TestServer;
let as: Caller;
let fx: ContractFixture;
useFixtureServer((t) => ({ server, as, fx } = t));

type Ids = { user: number; group: number };
type Call = {
  method: Method;
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

const call = (c: Call, who: Who, ids: Ids) =>
  as(who).request(
    c.method,
    c.url(fx.contract.slug, ids),
    typeof c.body === 'function' ? c.body(ids) : c.body,
  );

describe('permission matrix', () => {
  it('refuses anonymous callers (401), outsiders (404), receive-only users and senders (403), and lets the admin through', async () => {
    const group = (
      await as(fx.admin).post(`/api/contracts/${fx.contract.slug}/addgroup/`, { name: 'G' })
    ).json();
    // A member of its own, so that removing them leaves the fixture's callers in place.
    const subject = await createUser(server);
    await addMember(server.ctx, fx.contract.id, subject.id, {});
    const ids = { user: subject.id, group: group.id };
    for (const c of ADMIN_CALLS) {
      const label = `${c.method} ${c.url('{slug}', ids)}`;
      expect((await call(c, null, ids)).statusCode, `anonymous ${label}`).toBe(401);
      expect((await call(c, fx.outsider, ids)).statusCode, `outsider ${label}`).toBe(404);
      expect((await call(c, fx.receiver, ids)).statusCode, `receive-only ${label}`).toBe(403);
      expect((await call(c, fx.sender, ids)).statusCode, `sender ${label}`).toBe(403);
      if (c.body !== undefined) {
        // Who may call is settled first: a body the schema refuses changes nothing for them.
        const junk = { ...c, body: c.method === 'GET' ? undefined : [['not', 'a', 'form']] };
        expect((await call(junk, fx.outsider, ids)).statusCode, `outsider junk ${label}`).toBe(404);
        expect((await call(junk, fx.sender, ids)).statusCode, `sender junk ${label}`).toBe(403);
      }
      const ok = await call(c, fx.admin, ids);
      expect(ok.statusCode, `admin ${label}: ${ok.body}`).toBeLessThan(300);
    }
  });

  it('lets every member read recipients and brandings, but not outsiders or anonymous callers', async () => {
    const recipients = `/api/contracts/${fx.contract.slug}/recipients/`;
    const branding = `/api/projects/${fx.contract.slug}/`;
    await as(fx.admin).patch(branding, { name: 'Brand' });
    for (const who of [fx.admin, fx.sender, fx.receiver]) {
      expect((await as(who).get(recipients)).statusCode).toBe(200);
      expect((await as(who).get(branding)).statusCode).toBe(200);
    }
    expect((await as(fx.outsider).get(recipients)).statusCode).toBe(404);
    expect((await as(fx.outsider).get(branding)).statusCode).toBe(404);
    expect((await as(null).get(recipients)).statusCode).toBe(401);
    expect((await as(null).get('/api/projects/')).statusCode).toBe(401);
  });
});
