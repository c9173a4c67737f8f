import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, sendMessages, type SenderPackage } from '@filerunner/protocol';
import {
  groupOfSenderAndReceiver,
  setContractSettings,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packages, users } from '../../db/schema';

let server: TestServer;
let fx: ContractFixture;

useFixtureServer(async (t) => {
  ({ server, fx } = t);
  await groupOfSenderAndReceiver(server, fx, 'Design');
  await setContractSettings(server, fx.contract.id, { can_add_ad_hoc: true });
});

let count = 0;
/** A new package's form, each with its own name so the packages can be told apart. */
const form = (recipients: unknown[] = [{ id: fx.receiver.user.id }]) => ({
  contract: fx.contract.slug,
  name: `Retried ${++count}`,
  recipients,
  valid_from: new Date().toISOString(),
  valid_to: new Date(Date.now() + 48 * 3600_000).toISOString(),
  expected_files: 1,
  expected_size: 5,
  intended_files: [{ filename: 'x.txt', size: 5 }],
});

async function create(payload: unknown, key?: string, headers = fx.sender.headers) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/packages/create/',
    headers: { ...headers, ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }) },
    payload: payload as object,
  });
  return { status: response.statusCode, body: response.json() as SenderPackage };
}

const packagesWithKey = (key: string) =>
  server.ctx.db
    .select({ id: packages.id, senderId: packages.senderId })
    .from(packages)
    .where(eq(packages.idempotencyKey, key));

describe('creating a package with an idempotency key', () => {
  it('answers a repeat with the first package instead of making another', async () => {
    const payload = form();
    const first = await create(payload, 'key-repeat');
    const again = await create(payload, 'key-repeat');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await packagesWithKey('key-repeat')).toHaveLength(1);
  });

  it('refuses a repeat of the key with another request (422), making nothing', async () => {
    const payload = form();
    const first = await create(payload, 'key-other-body');
    expect(first.status).toBe(201);
    const other = { ...payload, name: `${payload.name} (renamed)`, expected_size: 6 };
    other.intended_files = [{ filename: 'x.txt', size: 6 }];
    const refused = await create(other, 'key-other-body');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ detail: sendMessages.idempotencyKeyReused });
    expect(await packagesWithKey('key-other-body')).toHaveLength(1);
    // The same request again is still the first package.
    expect((await create(payload, 'key-other-body')).body).toEqual(first.body);
  });

  it('makes one package per key, and keys are each sender’s own', async () => {
    const a = await create(form(), 'key-a');
    const b = await create(form(), 'key-b');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.slug).not.toBe(b.body.slug);

    const byAdmin = await create(form(), 'key-a', fx.admin.headers);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.slug).not.toBe(a.body.slug);
    expect((await packagesWithKey('key-a')).map((p) => p.senderId).sort()).toEqual(
      [fx.sender.user.id, fx.admin.user.id].sort(),
    );
  });

  it('makes one package when repeats arrive together, ad-hoc recipients included', async () => {
    const known = { id: fx.receiver.user.id };
    for (const [key, recipients] of [
      ['key-together', [known]],
      ['key-together-adhoc', [known, { email: 'together@example.com' }]],
    ] as const) {
      const payload = form([...recipients]);
      const answers = await Promise.all(Array.from({ length: 4 }, () => create(payload, key)));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(answers.map((a) => a.body.slug)).size).toBe(1);
      expect(await packagesWithKey(key)).toHaveLength(1);
    }
    const adHoc = await server.ctx.db
      .select()
      .from(users)
      .where(eq(users.email, 'together@example.com'));
    expect(adHoc).toHaveLength(1);
  });

  it('creates as before without the header', async () => {
    const payload = form();
    const first = await create(payload);
    const second = await create(payload);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.slug).not.toBe(second.body.slug);
    const named = await server.ctx.db
      .select({ key: packages.idempotencyKey })
      .from(packages)
      .where(and(eq(packages.name, payload.name), eq(packages.senderId, fx.sender.user.id)));
    expect(named).toEqual([{ key: null }, { key: null }]);
  });

  it('refuses a malformed key and creates nothing', async () => {
    const payload = form();
    for (const key of ['', 'with space', 'x'.repeat(201)]) {
      const refused = await create(payload, key);
      expect(refused.status, JSON.stringify(key)).toBe(400);
      expect(refused.body).toEqual({ [IDEMPOTENCY_KEY_HEADER]: [sendMessages.badIdempotencyKey] });
    }
    const made = await server.ctx.db.select().from(packages).where(eq(packages.name, payload.name));
    expect(made).toHaveLength(0);
    expect((await create(payload, 'x'.repeat(200))).status).toBe(201);
  });
});

describe('creating packages to a new ad-hoc address', () => {
  it('creates every one of several sent at once, and one account for the address', async () => {
    const email = 'new-adhoc-parallel@example.com';
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(form([{ email }]))));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 201));
    const accounts = await server.ctx.db.select().from(users).where(eq(users.email, email));
    expect(accounts).toHaveLength(1);
  });
});

describe('file paths a package refuses', () => {
  it.each([
    ['..\\..\\AppData\\Roaming\\run.bat', '..\\..\\AppData\\Roaming\\run.bat'],
    ['C:/Windows/run.bat', 'C:'],
    ['docs/c:evil.txt', 'c:evil.txt'],
    ['CON', 'CON'],
    ['docs/nul.txt', 'nul.txt'],
    ['Com1.tar.gz', 'Com1.tar.gz'],
    ['LPT9', 'LPT9'],
    ['report./a.txt', 'report.'],
    ['docs/a.txt ', 'a.txt '],
  ])('refuses %j with the offending segment (400, field error)', async (filename, segment) => {
    const payload = { ...form(), intended_files: [{ filename, size: 5 }] };
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/packages/create/',
      headers: fx.sender.headers,
      payload,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      intended_files: [
        `Invalid path segment "${segment}": Filename contains invalid characters or patterns`,
      ],
    });
    const made = await server.ctx.db.select().from(packages).where(eq(packages.name, payload.name));
    expect(made).toHaveLength(0);
  });

  it('still takes names that only look like reserved ones', async () => {
    for (const filename of ['CONSOLE.txt', 'com10', 'docs/a.b', 'notes:v2/a', 'nul-ish/aux_.txt']) {
      const payload = { ...form(), intended_files: [{ filename, size: 5 }] };
      expect((await create(payload)).status, filename).toBe(201);
    }
  });
});
