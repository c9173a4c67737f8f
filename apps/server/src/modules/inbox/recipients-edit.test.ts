import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inboxMessages, sendMessages, type SentPackage } from '@filerunner/protocol';
import {
  createUser,
  groupOfSenderAndReceiver,
  login,
  setContractSettings,
  uniqueEmail,
  useFixtureServer,
  type Caller,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { defaultContractSettings, memberships, packageRecipients } from '../../db/schema';
import { addMember } from '../contracts/contracts.service';
import { insertGroup } from '../contracts/groups.repository';
import { addRecipient, createPackage } from '../downloads/download-fixtures';

let server: TestServer;
let fx: ContractFixture;
let as: Caller;

useFixtureServer(async (t) => {
  ({ server, fx, as } = t);
  // The sender reaches the receiver by the group rules: they share a group.
  await groupOfSenderAndReceiver(server, fx, 'Crew');
});

const setSettings = (change: Partial<typeof defaultContractSettings>) =>
  setContractSettings(server, fx.contract.id, change);

async function sentPackage(expiresInHours = 72) {
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    expiresInHours,
  });
  await addRecipient(server, pkg.id, fx.receiver.user);
  return pkg;
}

const add = (slug: string, body: object) =>
  as(fx.sender).post(`/api/packages/sent/${slug}/add_recipients/`, body);

describe('adding recipients', () => {
  it('mails each new recipient their link and shows them the package', async () => {
    await setSettings({ can_add_ad_hoc: true });
    const pkg = await sentPackage();
    const adHoc = uniqueEmail('adhoc');
    const response = await add(pkg.slug, {
      recipients: [{ user: fx.admin.user.id }, { email: adHoc }],
      message: 'Here is the cut.',
    });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json() as SentPackage;
    expect(view.recipients.map((r) => r.email)).toEqual([
      fx.receiver.user.email,
      fx.admin.user.email,
      adHoc,
    ]);

    // The admin has an account: the mail opens their inbox, where the package now is.
    const adminMail = await server.waitForMail((m) => m.to.includes(fx.admin.user.email));
    expect(adminMail.links[0]).toBe(`${server.ctx.config.publicUrl}/inbox/${pkg.slug}`);
    expect(adminMail.text).toContain('Here is the cut.');
    const inbox = (await as(fx.admin).get('/api/packages/received/')).json();
    expect(inbox.packages.map((p: { slug: string }) => p.slug)).toContain(pkg.slug);

    // The ad-hoc address gets the external page with its own key, which opens the package.
    const adHocMail = await server.waitForMail((m) => m.to.includes(adHoc));
    const link = new URL(adHocMail.links[0]!);
    expect(link.pathname).toBe(`/inbox/external/${pkg.slug}`);
    const page = await as(null).get(`/api/packages/received/${pkg.slug}/files_external/`, {
      key: link.searchParams.get('key')!,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().files.map((f: { user_path: string }) => f.user_path)).toEqual(['only.bin']);
    const [row] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.email, adHoc));
    expect(row!.keyHash).not.toContain(link.searchParams.get('key')!);
  });

  it('follows the rules of sending: groups, ad-hoc policy, PIN mobiles, no repeats', async () => {
    await setSettings({ can_add_ad_hoc: false });
    const pkg = await sentPackage();
    const refused = async (body: object, message: string) => {
      const response = await add(pkg.slug, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ recipients: [message] });
    };
    await refused({ recipients: [] }, sendMessages.selectRecipients);
    await refused({ recipients: [{ email: uniqueEmail() }] }, sendMessages.adHocNotAllowed);
    await refused({ recipients: [{ user: fx.receiver.user.id }] }, inboxMessages.alreadyRecipient);

    // The sender is in a group; a member of another group is out of their reach.
    const other = await createUser(server);
    await addMember(server.ctx, fx.contract.id, other.id, {});
    await insertGroup(server.ctx.db, fx.contract.id, {
      name: 'Editors',
      members: [fx.sender.user.id],
    });
    await insertGroup(server.ctx.db, fx.contract.id, { name: 'Clients', members: [other.id] });
    await refused({ recipients: [{ user: other.id }] }, sendMessages.recipientNotAllowed);

    await setSettings({ pin_verification: 'all' });
    await refused({ recipients: [{ user: fx.admin.user.id }] }, inboxMessages.pinMobilesAll);
    const withMobile = await add(pkg.slug, {
      recipients: [{ user: fx.admin.user.id, mobile: '+447911123456' }],
    });
    expect(withMobile.statusCode).toBe(200);
    expect(withMobile.json().recipients[1]).toMatchObject({
      id: fx.admin.user.id,
      mobile: '+447911123456',
      pin_required: true,
    });
    expect(withMobile.json().pin_verified).toBe(true);
    await setSettings({});
  });

  it('is refused once the package has expired, and to a sender without send permission', async () => {
    const expired = await sentPackage(-1);
    const response = await add(expired.slug, { recipients: [{ user: fx.admin.user.id }] });
    expect(response.statusCode).toBe(410);

    const pkg = await sentPackage();
    const { db } = server.ctx;
    await db
      .update(memberships)
      .set({ send: false })
      .where(eq(memberships.userId, fx.sender.user.id));
    try {
      const refused = await add(pkg.slug, { recipients: [{ user: fx.admin.user.id }] });
      expect(refused.statusCode).toBe(403);
    } finally {
      await db
        .update(memberships)
        .set({ send: true })
        .where(eq(memberships.userId, fx.sender.user.id));
    }
  });
});

describe('removing a recipient', () => {
  it('ends their access at once, download URLs already handed out included', async () => {
    const pkg = await sentPackage();
    const grant = await as(fx.receiver).get(`/api/packages/${pkg.slug}/download/`);
    const url = new URL(grant.json().download_url as string).pathname;
    expect((await server.app.inject({ method: 'HEAD', url })).statusCode).toBe(200);

    const removed = await as(fx.sender).post(
      `/api/packages/sent/${pkg.slug}/remove_recipient/${fx.receiver.user.id}/`,
    );
    expect(removed.statusCode).toBe(200);
    expect(removed.json().recipients[0]).toMatchObject({ id: fx.receiver.user.id, removed: true });

    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(403);
    const detail = (await as(fx.receiver).get(`/api/packages/received/${pkg.slug}/`)).json();
    expect(detail).toMatchObject({ removed: true });
    const files = await as(fx.receiver).get(`/api/packages/received/${pkg.slug}/files/`);
    expect(files.json()).toEqual({ detail: inboxMessages.removed });

    // Adding them again gives access back, under a new key.
    const back = await add(pkg.slug, { recipients: [{ user: fx.receiver.user.id }] });
    expect(back.json().recipients).toEqual([
      expect.objectContaining({ id: fx.receiver.user.id, removed: false }),
    ]);
    expect(
      (await as(fx.receiver).get(`/api/packages/received/${pkg.slug}/files/`)).statusCode,
    ).toBe(200);
  });

  it('is 404 for someone who is not a recipient', async () => {
    const pkg = await sentPackage();
    const response = await as(fx.sender).post(
      `/api/packages/sent/${pkg.slug}/remove_recipient/${fx.outsider.user.id}/`,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: inboxMessages.recipientNotFound });
  });
});

describe("updating a recipient's mobile", () => {
  const update = (slug: string, body: object, userId = fx.receiver.user.id) =>
    as(fx.sender).post(`/api/packages/sent/${slug}/update_recipient/${userId}/`, body);

  it('stores the number with its leading +, in the words of the screen otherwise', async () => {
    const pkg = await sentPackage();
    expect((await update(pkg.slug, {})).json()).toEqual({ mobile: [inboxMessages.mobileRequired] });
    expect((await update(pkg.slug, { mobile: ' ' })).json()).toEqual({
      mobile: [inboxMessages.mobileRequired],
    });
    const invalid = await update(pkg.slug, { mobile: '+44 12' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ mobile: [inboxMessages.mobileInvalid] });
    const ok = await update(pkg.slug, { mobile: '447911123456' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().recipients[0]).toMatchObject({ mobile: '+447911123456', mobile_hint: '456' });
  });

  it('is refused on an expired package and for a removed recipient', async () => {
    const expired = await sentPackage(-1);
    const gone = await update(expired.slug, { mobile: '+447911123456' });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ detail: inboxMessages.expired });

    const pkg = await sentPackage();
    await as(fx.sender).post(
      `/api/packages/sent/${pkg.slug}/remove_recipient/${fx.receiver.user.id}/`,
    );
    const removed = await update(pkg.slug, { mobile: '+447911123456' });
    expect(removed.statusCode).toBe(400);
    expect(removed.json()).toEqual({ detail: inboxMessages.recipientRemoved });
  });

  it('is the sender’s alone', async () => {
    const pkg = await sentPackage();
    const headers = await login(server, fx.admin.user.email);
    const response = await as({ headers }).post(
      `/api/packages/sent/${pkg.slug}/update_recipient/${fx.receiver.user.id}/`,
      { mobile: '+447911123456' },
    );
    expect(response.statusCode).toBe(404);
  });
});
