import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Contract } from '@filerunner/protocol';
import {
  contractFixture,
  groupOfSenderAndReceiver,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { fileBytes, TestUploader, type TestFile } from '../../../test/uploader';
import { packages } from '../../db/schema';
import { setContractQuotas, type ContractQuotas } from '../contracts/contracts.service';

let server: TestServer;
let origin: string;

useTestServer(async (t) => {
  ({ server } = t);
  origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
});

const hour = 3600_000;
const tooLarge = 'This package is larger than your contract allows';

/** A contract of its own for each test, with these limits, and an uploader for its sender. */
async function contractWith(quotas: ContractQuotas) {
  const fx = await contractFixture(server);
  await groupOfSenderAndReceiver(server, fx, 'Team');
  if (Object.keys(quotas).length > 0) {
    expect(await setContractQuotas(server.ctx, fx.contract.slug, quotas)).toBe(true);
  }
  return { fx, sender: new TestUploader(server, origin, fx.sender.headers) };
}

let count = 0;
/** A package form of files of these sizes, each package named apart. */
function form(fx: ContractFixture, ...sizes: number[]) {
  return {
    contract: fx.contract.slug,
    name: `Quota ${++count}`,
    recipients: [{ id: fx.receiver.user.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * hour).toISOString(),
    expected_files: sizes.length,
    expected_size: sizes.reduce((a, b) => a + b, 0),
    intended_files: sizes.map((size, i) => ({ filename: `file-${i}.bin`, size })),
  };
}

const create = (sender: TestUploader, payload: unknown) =>
  sender.call('POST', '/packages/create/', payload);

const packagesOf = (fx: ContractFixture) =>
  server.ctx.db
    .select({ id: packages.id, name: packages.name })
    .from(packages)
    .where(eq(packages.contractId, fx.contract.id));

describe("a contract's largest package", () => {
  it('refuses a larger package up front with the limit in the message, and creates nothing', async () => {
    const { fx, sender } = await contractWith({ maxPackageSize: 10_000_000 });
    const refused = await create(sender, form(fx, 8_000_000, 4_500_000));
    expect(refused).toEqual({
      status: 413,
      body: {
        detail: `${tooLarge}: a package can be at most 10 MB and this one is 12.5 MB.`,
      },
    });
    expect(await packagesOf(fx)).toEqual([]);

    // A package of exactly the limit is allowed, as many times as the sender likes.
    expect((await create(sender, form(fx, 10_000_000))).status).toBe(201);
    expect((await create(sender, form(fx, 6_000_000, 4_000_000))).status).toBe(201);
  });

  it('is unlimited by default and once set back to unlimited', async () => {
    const { fx, sender } = await contractWith({});
    expect((await create(sender, form(fx, 5e12))).status).toBe(201);
    await setContractQuotas(server.ctx, fx.contract.slug, { maxPackageSize: 1000 });
    expect((await create(sender, form(fx, 1001))).status).toBe(413);
    await setContractQuotas(server.ctx, fx.contract.slug, { maxPackageSize: null });
    expect((await create(sender, form(fx, 1001))).status).toBe(201);
  });

  it('is shown with the storage quota to the contract’s members, not changed by its admin', async () => {
    const { fx, sender } = await contractWith({ storageQuota: 5e11, maxPackageSize: 2e9 });
    const listed = await sender.call('GET', '/contracts/');
    const contract = (listed.body as unknown as Contract[]).find((c) => c.id === fx.contract.id);
    expect(contract).toMatchObject({ storage_quota: 5e11, max_package_size: 2e9 });

    // They are the operator's: the project admin's settings call cannot lift them.
    const asAdmin = new TestUploader(server, origin, fx.admin.headers);
    const saved = await asAdmin.call('POST', `/contracts/${fx.contract.slug}/settings/`, {
      can_add_ad_hoc: true,
      storage_quota: null,
      max_package_size: null,
    });
    expect(saved.status).toBe(200);
    const after = (await asAdmin.call('GET', '/contracts/')).body as unknown as Contract[];
    expect(after.find((c) => c.id === fx.contract.id)).toMatchObject({
      settings: { can_add_ad_hoc: true },
      storage_quota: 5e11,
      max_package_size: 2e9,
    });
    expect((await create(sender, form(fx, 2e9 + 1))).status).toBe(413);
  });
});

describe("a contract's storage quota", () => {
  it('counts packages under way by their declared size and refuses what does not fit', async () => {
    const { fx, sender } = await contractWith({ storageQuota: 1_000_000 });
    expect((await create(sender, form(fx, 400_000))).status).toBe(201);
    expect((await create(sender, form(fx, 350_000, 50_000))).status).toBe(201);
    const refused = await create(sender, form(fx, 300_000));
    expect(refused).toEqual({
      status: 413,
      body: {
        detail:
          `${tooLarge}: 200 KB is left of its 1 MB storage quota until earlier packages ` +
          'expire, and this one is 300 KB.',
      },
    });
    expect(await packagesOf(fx)).toHaveLength(2);
    // What is left still fits.
    expect((await create(sender, form(fx, 200_000))).status).toBe(201);
    const full = await create(sender, form(fx, 1));
    expect(full.body.detail).toBe(
      `${tooLarge}: nothing is left of its 1 MB storage quota until earlier packages expire, ` +
        'and this one is 1 byte.',
    );
  });

  it('tells the contract’s admin, and only them, what its live packages use', async () => {
    const { fx, sender } = await contractWith({ storageQuota: 1_000_000, maxPackageSize: 600_000 });
    expect((await create(sender, form(fx, 250_000, 50_000))).status).toBe(201);
    const path = `/contracts/${fx.contract.slug}/storage/`;
    const asAdmin = new TestUploader(server, origin, fx.admin.headers);
    expect(await asAdmin.call('GET', path)).toEqual({
      status: 200,
      body: { storage_quota: 1_000_000, max_package_size: 600_000, storage_used: 300_000 },
    });
    expect((await sender.call('GET', path)).status).toBe(403);
    expect(
      (await new TestUploader(server, origin, fx.outsider.headers).call('GET', path)).status,
    ).toBe(404);
  });

  it('counts a sent package by the bytes it stored', async () => {
    const { fx, sender } = await contractWith({ storageQuota: 10_000 });
    const files: TestFile[] = [{ path: 'report.pdf', bytes: fileBytes(6_000, 1) }];
    await sender.send(files, {
      create: { contract: fx.contract.slug, recipients: [{ id: fx.receiver.user.id }] },
    });
    const [sent] = await packagesOf(fx);
    expect(sent).toBeDefined();

    const refused = await create(sender, form(fx, 4_001));
    expect(refused.status).toBe(413);
    expect(refused.body.detail).toBe(
      `${tooLarge}: 4,000 bytes is left of its 10 KB storage quota until earlier packages ` +
        'expire, and this one is 4,001 bytes.',
    );
    expect((await create(sender, form(fx, 4_000))).status).toBe(201);
  });

  it('is freed when a package expires, and when its objects are swept', async () => {
    const { fx, sender } = await contractWith({ storageQuota: 1_000 });
    expect((await create(sender, form(fx, 600))).status).toBe(201);
    expect((await create(sender, form(fx, 400))).status).toBe(201);
    expect((await create(sender, form(fx, 500))).status).toBe(413);
    const [first, second] = await packagesOf(fx).orderBy(packages.id);

    // The first package's access period ends: its 600 bytes are free again.
    await server.ctx.db
      .update(packages)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(packages.id, first!.id));
    expect((await create(sender, form(fx, 500))).status).toBe(201);
    expect((await create(sender, form(fx, 200))).status).toBe(413);

    // The second passes its storage limit (sent 16 days ago) and the sweeper deletes it.
    await server.ctx.db
      .update(packages)
      .set({ sentAt: sql`now() - interval '16 days'` })
      .where(eq(packages.id, second!.id));
    expect(await server.objectSweeper.sweep()).toBeGreaterThanOrEqual(2);
    expect((await create(sender, form(fx, 500))).status).toBe(201);
  });

  it('lets only the creates that fit through when they arrive together', async () => {
    // Room for two packages of 400 bytes, not three: of six at once, two are made.
    const { fx, sender } = await contractWith({ storageQuota: 1_000 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => create(sender, form(fx, 400))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 413, 413, 413, 413]);
    expect(await packagesOf(fx)).toHaveLength(2);
  });

  it('answers repeats of one create, arriving together, with its package, not a refusal', async () => {
    // The repeats wait for the first one's lock, then find its package already in the sum.
    const { fx } = await contractWith({ storageQuota: 1_000 });
    const payload = form(fx, 700);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        server.app.inject({
          method: 'POST',
          url: '/api/packages/create/',
          headers: { ...fx.sender.headers, [IDEMPOTENCY_KEY_HEADER]: 'one-create' },
          payload,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => (a.json() as { slug: string }).slug)).size).toBe(1);
    expect(await packagesOf(fx)).toHaveLength(1);
  });
});
