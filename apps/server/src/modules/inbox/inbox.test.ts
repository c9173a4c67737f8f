import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expiryExtensionDays, inboxMessages, type ReceivedPage } from '@filerunner/protocol';
import {
  contractFixture,
  contractMember,
  setContractSettings,
  useFixtureServer,
  type Caller,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packages } from '../../db/schema';
import { addMember } from '../contracts/contracts.service';
import { addRecipient, createPackage } from '../downloads/download-fixtures';

let server: TestServer;
let fx: ContractFixture;
let as: Caller;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

useFixtureServer((t) => ({ server, fx, as } = t));

/** A sent one-file package of the fixture's sender to `to`, sent `ageHours` ago. */
async function sentTo(
  to: { id: number; email: string }[],
  options: {
    contractId?: number;
    ageHours?: number;
    expiresInHours?: number;
    status?: 'uploading';
  } = {},
) {
  const { pkg } = await createPackage(server, {
    contractId: options.contractId ?? fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    expiresInHours: options.expiresInHours ?? 72,
    ...(options.status ? { status: options.status } : {}),
  });
  const sentAt = new Date(Date.now() - (options.ageHours ?? 0) * HOUR);
  await server.ctx.db.update(packages).set({ sentAt }).where(eq(packages.id, pkg.id));
  for (const user of to) await addRecipient(server, pkg.id, user);
  return pkg;
}

describe('the Inbox and Sent lists', () => {
  it('pages newest first, by contract, counting unseen, never showing uploads', async () => {
    const { user: receiver, headers } = await contractMember(server, fx.contract.id, {});
    const { contract } = await contractFixture(server);
    await addMember(server.ctx, contract.id, receiver.id, {});
    await addMember(server.ctx, contract.id, fx.sender.user.id, { send: true });
    const made = [];
    for (let i = 0; i < 17; i++) made.push(await sentTo([receiver], { ageHours: 17 - i }));
    const elsewhere = await sentTo([receiver], { contractId: contract.id, ageHours: 0.5 });
    const uploading = await sentTo([receiver], { status: 'uploading' });
    const list = (query: Record<string, string | number | boolean>) =>
      as({ headers }).get('/api/packages/received/', query);

    const first = (await list({ contract_slug: fx.contract.slug })).json() as ReceivedPage;
    expect(first.packages.map((p) => p.slug)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((p) => p.slug),
    );
    expect(first).toMatchObject({ page: 1, page_size: 15, total: 17, has_more: true, unseen: 17 });
    expect(first.unseen_by_contract).toEqual({ [fx.contract.slug]: 17, [contract.slug]: 1 });
    const second = (
      await list({ contract_slug: fx.contract.slug, page: 2 })
    ).json() as ReceivedPage;
    expect(second.packages.map((p) => p.slug)).toEqual([made[1]!.slug, made[0]!.slug]);
    expect(second.has_more).toBe(false);
    const cleared = (await list({ contract_slug: fx.contract.slug, page: 2, clear: true })).json();
    expect(cleared.page).toBe(1);

    const all = (await list({})).json() as ReceivedPage;
    expect(all.total).toBe(18);
    expect(all.packages[0]!.slug).toBe(elsewhere.slug);
    expect(all.unseen).toBe(18);
    for (const page of [first, second, all]) {
      expect(page.packages.map((p) => p.slug)).not.toContain(uploading.slug);
    }
    expect(
      (await as({ headers }).get(`/api/packages/received/${uploading.slug}/`)).statusCode,
    ).toBe(404);

    const seen = await as({ headers }).post(`/api/packages/${made[16]!.slug}/mark_seen/`);
    expect(seen.json()).toMatchObject({ slug: made[16]!.slug, seen: true });
    const after = (await list({ contract_slug: fx.contract.slug })).json() as ReceivedPage;
    expect(after.unseen).toBe(16);
    expect(after.packages[0]).toMatchObject({ seen: true });
    expect(after.packages[1]).toMatchObject({ seen: false });
  });

  it("pages the sender's packages 20 at a time, with recipients and their status", async () => {
    const { user: sender, headers } = await contractMember(server, fx.contract.id, { send: true });
    const make = async (status?: 'uploading') => {
      const { pkg } = await createPackage(server, {
        contractId: fx.contract.id,
        senderId: sender.id,
        files: 'one',
        ...(status ? { status } : {}),
      });
      await addRecipient(server, pkg.id, fx.receiver.user, { downloaded: 'partial' });
      return pkg;
    };
    const made = [];
    for (let i = 0; i < 21; i++) made.push(await make());
    const uploading = await make('uploading');
    const first = (
      await as({ headers }).get('/api/packages/sent/', { contract_slug: fx.contract.slug })
    ).json();
    expect(first).toMatchObject({ page: 1, page_size: 20, total: 21, has_more: true });
    expect(first.packages[0].slug).toBe(made[20]!.slug);
    expect(first.packages[0].recipients).toEqual([
      expect.objectContaining({ id: fx.receiver.user.id, downloaded: 'partial', removed: false }),
    ]);
    const second = (await as({ headers }).get('/api/packages/sent/', { page: 2 })).json();
    expect(second.packages.map((p: { slug: string }) => p.slug)).toEqual([made[0]!.slug]);
    expect((await as({ headers }).get(`/api/packages/sent/${uploading.slug}/`)).statusCode).toBe(
      404,
    );
  });

  it('leaves packages still uploading out of the Activity screen', async () => {
    const uploading = await sentTo([fx.receiver.user], { status: 'uploading' });
    const sent = await sentTo([fx.receiver.user]);
    const page = (await as(fx.admin).get(`/api/packages/${fx.contract.slug}/activity/`)).json();
    const slugs = page.packages.map((p: { slug: string }) => p.slug);
    expect(slugs).toContain(sent.slug);
    expect(slugs).not.toContain(uploading.slug);
  });
});

describe('extending the expiry', () => {
  const extend = (slug: string) => as(fx.receiver).post(`/api/packages/${slug}/extend-expiry/`);

  it('is refused when the contract does not allow it', async () => {
    await setContractSettings(server, fx.contract.id, { can_extend_expiry: false });
    const pkg = await sentTo([fx.receiver.user], { expiresInHours: 12 });
    const response = await extend(pkg.slug);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: inboxMessages.extendNotAllowed });
  });

  it('needs the package to be expiring, and keeps it within 15 days of sending', async () => {
    await setContractSettings(server, fx.contract.id, { can_extend_expiry: true });
    const later = await sentTo([fx.receiver.user], { expiresInHours: 72 });
    expect((await extend(later.slug)).json()).toEqual({ detail: inboxMessages.extendNotExpiring });

    const expiring = await sentTo([fx.receiver.user], { expiresInHours: 12 });
    const [before] = await server.ctx.db
      .select()
      .from(packages)
      .where(eq(packages.id, expiring.id));
    const extended = await extend(expiring.slug);
    expect(extended.statusCode).toBe(200);
    expect(new Date(extended.json().expires_date).getTime()).toBe(
      before!.expiresAt.getTime() + expiryExtensionDays * DAY,
    );
    expect(extended.json()).toMatchObject({ expires_soon: false, expired: false });

    // Sent 10 days ago: the storage limit is 5 days away, nearer than a whole extension.
    const old = await sentTo([fx.receiver.user], { expiresInHours: 12, ageHours: 240 });
    const capped = await extend(old.slug);
    const [row] = await server.ctx.db.select().from(packages).where(eq(packages.id, old.id));
    expect(new Date(capped.json().expires_date).getTime()).toBe(row!.sentAt.getTime() + 15 * DAY);

    // Its storage limit passes before its end: there is nothing left to give.
    const atLimit = await sentTo([fx.receiver.user], { expiresInHours: 4, ageHours: 15 * 24 - 3 });
    const refused = await extend(atLimit.slug);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: inboxMessages.extendAtLimit });
  });
});
