import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ContractUser, RecipientGroup, SenderPackage } from '@filerunner/protocol';
import {
  BASE_HEADERS,
  PASSWORD,
  contractFixture,
  linkIn,
  login,
  uniqueEmail,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packageRecipients, users } from '../../db/schema';

// Accounts are shared by every contract a person is in; what a contract's admin reads and
// changes about a person must stay that contract's. The matrix: the admin of B adds an address
// (through the Users dialog or as an external partner) whose account is B's alone or also A's,
// activated or not, then renames the person. What A shows (its users list, its recipient list,
// its packages' default PIN mobile) and the person's own profile must not move; B's view must.

let server: TestServer;
let a: ContractFixture;
let b: ContractFixture;
useTestServer(async (t) => {
  ({ server } = t);
  a = await contractFixture(server);
  b = await contractFixture(server);
});

type Fixture = typeof a;
const A_MOBILE = '+447911123456';
const B_MOBILE = '+14155552671';

const call = (fx: Fixture, method: 'GET' | 'POST', path: string, payload?: unknown) =>
  server.app.inject({
    method,
    url: `/api/contracts/${fx.contract.slug}/${path}`,
    headers: fx.admin.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function usersListRow(fx: Fixture, id: number): Promise<ContractUser | undefined> {
  const list = (await call(fx, 'GET', 'permissions/')).json() as ContractUser[];
  return list.find((u) => u.id === id);
}

async function recipientRow(fx: Fixture, id: number) {
  const groups = (await call(fx, 'GET', 'recipients/')).json() as RecipientGroup[];
  return groups.flatMap((g) => g.members).find((m) => m.id === id);
}

/** The mobile a package of the contract's admin to the person gets when the form names none. */
async function defaultPinMobile(fx: Fixture, id: number): Promise<string | null> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/packages/create/',
    headers: fx.admin.headers,
    payload: {
      contract: fx.contract.slug,
      name: `To ${id}`,
      recipients: [{ id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * 3600_000).toISOString(),
      expected_files: 1,
      expected_size: 5,
      intended_files: [{ filename: 'x.txt', size: 5 }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const pkg = response.json() as SenderPackage;
  const [row] = await server.ctx.db
    .select({ mobile: packageRecipients.mobile })
    .from(packageRecipients)
    .where(and(eq(packageRecipients.packageId, pkg.id), eq(packageRecipients.userId, id)));
  return row!.mobile;
}

async function ownProfile(id: number) {
  const [row] = await server.ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName, mobile: users.mobile })
    .from(users)
    .where(eq(users.id, id));
  return row!;
}

/** Activates the account from the newest activation mail to it, then signs the person in. */
async function activate(email: string, name: string, mobile: string) {
  const mail = await server.waitForMail(
    (m) => JSON.stringify(m.to).includes(email) && (m.text ?? '').includes('/activate/'),
  );
  const [uid, token] = new URL(linkIn(mail)).pathname.split('/').slice(2);
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/user/activate/',
    headers: BASE_HEADERS,
    payload: { uid, token, name, mobile, password: PASSWORD, password_confirm: PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  await login(server, email);
}

/** A's member: invited through A's Users dialog with A's name and mobile, maybe activated. */
async function memberOfA(email: string, activated: boolean): Promise<number> {
  const added = await call(a, 'POST', 'users/', {
    first_name: 'Ann',
    last_name: 'Alpha',
    email,
    mobile: A_MOBILE,
    add_to_master_group: true,
  });
  expect(added.statusCode, added.body).toBe(201);
  if (activated) await activate(email, 'Ann Alpha', A_MOBILE);
  return added.json().id;
}

/** B adds the address: the Users dialog with a name and no mobile, or as a partner with one. */
const addToB = (route: 'users' | 'external', email: string) =>
  route === 'users'
    ? call(b, 'POST', 'users/', {
        first_name: 'Bea',
        last_name: 'Beta',
        email,
        add_to_master_group: true,
      })
    : call(b, 'POST', 'users/external/', [{ email, mobile: B_MOBILE }]);

const cases = [
  { account: 'only in B, not activated', inA: false, activated: false },
  { account: 'only in B, activated', inA: false, activated: true },
  { account: 'in A and B, not activated', inA: true, activated: false },
  { account: 'in A and B, activated', inA: true, activated: true },
].flatMap((c) => [
  { ...c, route: 'users' as const },
  // A partner added by B only never gets an activation mail, so it cannot be activated.
  ...(c.inA || !c.activated ? [{ ...c, route: 'external' as const }] : []),
]);

describe.each(cases)('admin of B, account $account, added through $route', (c) => {
  const email = uniqueEmail(`${c.inA ? 'ab' : 'b'}-${c.activated ? 'on' : 'off'}-${c.route}`);
  const bName = c.route === 'users' ? 'Bea Beta' : email;
  const bMobile = c.route === 'users' ? null : B_MOBILE;
  let id: number;
  let profileBefore: Awaited<ReturnType<typeof ownProfile>>;

  it('the add answer shows only what B gave, and the person is told by mail', async () => {
    if (c.inA) id = await memberOfA(email, c.activated);
    const added = await addToB(c.route, email);
    expect(added.statusCode, added.body).toBe(201);
    const answer = (c.route === 'users' ? added.json() : added.json()[0]) as ContractUser;
    id ??= answer.id;
    expect(answer).toMatchObject({ id, email, name: bName, mobile: bMobile, activated: false });
    expect(JSON.stringify(answer)).not.toMatch(/Ann|Alpha|447911123456/);
    if (c.inA) {
      await server.waitForMail(
        (m) => JSON.stringify(m.to).includes(email) && (m.subject ?? '').includes(b.contract.name),
      );
    }
    if (!c.inA && c.activated) await activate(email, 'Own Name', '+447911123457');
    profileBefore = await ownProfile(id);
  });

  it("B's users list and recipient list show B's name and mobile, never A's", async () => {
    const row = await usersListRow(b, id);
    // Only the contract that brought the account and the person follow the person's own name.
    const expectedName = !c.inA && c.activated ? 'Own Name' : bName;
    expect(row).toMatchObject({ name: expectedName });
    expect(row?.mobile).toBe(!c.inA && c.activated ? '+447911123457' : bMobile);
    expect(row?.activated).toBe(c.activated && !c.inA);
    expect(JSON.stringify(row)).not.toMatch(/Ann|Alpha|447911123456/);
    const recipient = await recipientRow(b, id);
    expect(recipient).toMatchObject({ name: expectedName });
    expect(JSON.stringify(recipient)).not.toMatch(/Ann|Alpha|447911123456/);
  });

  it("B's rename changes B's view only, unless the account is still B's own invitation", async () => {
    const renamed = await call(b, 'POST', `userdetails/${id}/`, { name: 'Renamed  By Bee' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Renamed By Bee',
      first_name: 'Renamed',
      last_name: 'By Bee',
    });
    expect(await usersListRow(b, id)).toMatchObject({ name: 'Renamed By Bee' });
    expect(await recipientRow(b, id)).toMatchObject({ name: 'Renamed By Bee' });
    const profile = await ownProfile(id);
    if (!c.inA && !c.activated) {
      // An invitation B alone holds is still B's data: the activation page will offer the name.
      expect(profile).toMatchObject({ firstName: 'Renamed', lastName: 'By Bee' });
    } else {
      expect(profile).toEqual(profileBefore);
    }
  });

  it.runIf(c.inA)("A's users list, recipient list and default PIN mobile stay A's", async () => {
    expect(await usersListRow(a, id)).toMatchObject({ name: 'Ann Alpha', mobile: A_MOBILE });
    expect(await recipientRow(a, id)).toMatchObject({ name: 'Ann Alpha', mobile: A_MOBILE });
    expect(await defaultPinMobile(a, id)).toBe(A_MOBILE);
  });

  it("B's packages take B's mobile for the person", async () => {
    const expected = !c.inA && c.activated ? '+447911123457' : bMobile;
    expect(await defaultPinMobile(b, id)).toBe(expected);
  });
});

describe('admin of B and a partner of A who has no mobile', () => {
  it("B's mobile stays B's: A's list and A's packages still have none", async () => {
    const email = uniqueEmail('a-partner');
    const added = await call(a, 'POST', 'users/external/', [{ email }]);
    const id = (added.json() as ContractUser[])[0]!.id;
    await call(a, 'POST', 'mastermembers/add/', { master_members: [id] });
    const inB = await call(b, 'POST', 'users/external/', [{ email, mobile: B_MOBILE }]);
    expect(inB.json()[0]).toMatchObject({ id, mobile: B_MOBILE });
    expect(await usersListRow(a, id)).toMatchObject({ mobile: null, name: email });
    expect(await recipientRow(a, id)).toMatchObject({ mobile: null });
    expect(await defaultPinMobile(a, id)).toBeNull();
    expect(await defaultPinMobile(b, id)).toBe(B_MOBILE);
    expect((await ownProfile(id)).mobile).toBeNull();
    await server.waitForMail(
      (m) => JSON.stringify(m.to).includes(email) && (m.subject ?? '').includes(b.contract.name),
    );
  });
});
