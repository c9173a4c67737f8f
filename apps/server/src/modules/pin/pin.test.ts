import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIN_LOCK_SECONDS, PIN_TTL_SECONDS, pinMessages } from '@filerunner/protocol';
import {
  BASE_HEADERS,
  contractFixture,
  startTestServer,
  type TestServer,
} from '../../../test/harness';
import { packageRecipients, packages } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import { downloadMessages } from '../downloads/download-messages';

const MOBILE = '+447700900123';
const HOUR = 3_600_000;
type Fixture = Awaited<ReturnType<typeof contractFixture>>;
type Response = Awaited<ReturnType<TestServer['app']['inject']>>;

/** The log lines a server wrote, as one text. */
function logBuffer() {
  const lines: string[] = [];
  return { write: (line: string) => void lines.push(line), text: () => lines.join('') };
}

/** A PIN package with a signed-in recipient and a link-key recipient, both asked for a PIN. */
async function pinPackage(
  server: TestServer,
  fx: Fixture,
  fields: { mobile?: string | null } = {},
) {
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
  });
  await server.ctx.db.update(packages).set({ pinVerify: true }).where(eq(packages.id, pkg.id));
  const mobile = fields.mobile === undefined ? MOBILE : fields.mobile;
  const member = await addRecipient(server, pkg.id, fx.receiver.user, {
    pinRequired: true,
    mobile,
  });
  const key = newToken();
  const [external] = await server.ctx.db
    .insert(packageRecipients)
    .values({
      packageId: pkg.id,
      email: `outside.${pkg.id}@example.com`,
      pinRequired: true,
      mobile,
      keyHash: tokenHash(key),
    })
    .returning();
  return { pkg, member, external: external!, key };
}

/** The PIN calls, as a signed-in recipient (headers) or as a link holder (key). */
function pinCalls(
  server: TestServer,
  slug: string,
  as: { headers: Record<string, string> } | { key: string },
) {
  const post = (call: string, payload: Record<string, unknown>) =>
    server.app.inject({
      method: 'POST',
      url: `/api/packages/${slug}/${call}/`,
      headers: 'headers' in as ? as.headers : BASE_HEADERS,
      payload: 'key' in as ? { ...payload, key: as.key } : payload,
    });
  const suffix = 'key' in as ? '_external' : '';
  return {
    send: () => post(`pin_verify${suffix}`, {}),
    verify: (code: string) => post(`pin_verify_code${suffix}`, { code }),
  };
}

const refusedWith = (response: Response, status: number, error: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ detail: { error } });
};

/** The PIN of the newest captured text to `to`, and its file. */
async function lastCapturedPin(server: TestServer, to = MOBILE) {
  const dir = path.join(server.dataDir, 'sms');
  const files = (await readdir(dir)).sort();
  for (const name of files.reverse()) {
    const file = path.join(dir, name);
    const text = await readFile(file, 'utf8');
    if (!text.startsWith(`To: ${to}\n`)) continue;
    const code = /PIN is (\d{6})\b/.exec(text)?.[1];
    if (code) return { code, file, count: files.length };
  }
  throw new Error(`no text captured for ${to}`);
}

/** A code other than `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

async function setRecipient(
  server: TestServer,
  id: number,
  fields: Partial<typeof packageRecipients.$inferInsert>,
) {
  await server.ctx.db.update(packageRecipients).set(fields).where(eq(packageRecipients.id, id));
}

describe('PIN verification with captured text messages', () => {
  let server: TestServer;
  let fx: Fixture;
  const log = logBuffer();
  /** Every PIN the test saw texted, and every response body, to look for leaks at the end. */
  const codes: string[] = [];
  const bodies: string[] = [];
  const seen = (response: Response) => {
    bodies.push(response.body);
    return response;
  };
  /** Sends a PIN and answers it, as read from the captured text. */
  async function sendAndRead(calls: ReturnType<typeof pinCalls>): Promise<string> {
    const response = seen(await calls.send());
    expect(response.statusCode, response.body).toBe(200);
    const { code } = await lastCapturedPin(server);
    codes.push(code);
    return code;
  }

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'debug' }, { logStream: log });
    fx = await contractFixture(server);
  });
  afterAll(() => server.close());

  const grant = (slug: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/packages/${slug}/download/`,
      headers: fx.receiver.headers,
    });
  const externalGrant = (slug: string, key: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/packages/external/${slug}/download/`,
      query: { key },
    });

  it('texts a signed-in recipient a PIN that unlocks their downloads', async () => {
    const { pkg, member } = await pinPackage(server, fx);
    expect((await grant(pkg.slug)).json()).toEqual({ detail: downloadMessages.locked });

    const calls = pinCalls(server, pkg.slug, fx.receiver);
    const sent = seen(await calls.send());
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ mobile_hint: '123', expires_in: PIN_TTL_SECONDS });
    const { code, file } = await lastCapturedPin(server);
    codes.push(code);
    expect(await readFile(file, 'utf8')).toContain(`Your FileRunner PIN is ${code}.`);
    expect(log.text()).toContain(file);
    const [row] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.id, member.id));
    // Stored hashed only.
    expect(row!.pinCodeHash).toMatch(/^\$argon2id\$/);
    expect(row!.pinCodeHash).not.toContain(code);

    refusedWith(seen(await calls.verify(wrong(code))), 400, pinMessages.notValid);
    expect((await grant(pkg.slug)).statusCode).toBe(403);

    const verified = seen(await calls.verify(code));
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ pin_verified: true, locked: false });
    expect((await grant(pkg.slug)).statusCode).toBe(200);
    // The PIN is used up.
    refusedWith(seen(await calls.verify(code)), 400, pinMessages.notValid);
  });

  it("texts a link's recipient a PIN that unlocks that key's downloads only", async () => {
    const { pkg, key, external, member } = await pinPackage(server, fx);
    const other = await pinPackage(server, fx);
    expect((await externalGrant(pkg.slug, key)).statusCode).toBe(403);

    // A key opens its own package only; an unknown key opens nothing.
    refusedWith(
      await pinCalls(server, other.pkg.slug, { key }).send(),
      404,
      downloadMessages.notFound,
    );
    refusedWith(
      await pinCalls(server, pkg.slug, { key: newToken() }).send(),
      404,
      downloadMessages.notFound,
    );

    const calls = pinCalls(server, pkg.slug, { key });
    const code = await sendAndRead(calls);
    // Another package's key cannot use this PIN.
    refusedWith(
      await pinCalls(server, pkg.slug, { key: other.key }).verify(code),
      404,
      downloadMessages.notFound,
    );
    const verified = seen(await calls.verify(code));
    expect(verified.statusCode, verified.body).toBe(200);

    expect((await externalGrant(pkg.slug, key)).statusCode).toBe(200);
    expect((await externalGrant(other.pkg.slug, other.key)).statusCode).toBe(403);
    const rows = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.packageId, pkg.id));
    const verifiedAt = new Map(rows.map((r) => [r.id, r.pinVerifiedAt]));
    expect(verifiedAt.get(external.id)).toBeInstanceOf(Date);
    expect(verifiedAt.get(member.id)).toBeNull();
  });

  it('accepts only the last PIN sent', async () => {
    const { pkg } = await pinPackage(server, fx);
    const calls = pinCalls(server, pkg.slug, fx.receiver);
    const first = await sendAndRead(calls);
    const second = await sendAndRead(calls);
    // One time in a million the two PINs are the same, and then the first one is the last one.
    if (first !== second) {
      refusedWith(seen(await calls.verify(first)), 400, pinMessages.notValid);
    }
    expect(seen(await calls.verify(second)).statusCode).toBe(200);
  });

  it('refuses a PIN ten minutes after it was sent', async () => {
    const { pkg, member } = await pinPackage(server, fx);
    const calls = pinCalls(server, pkg.slug, fx.receiver);
    const code = await sendAndRead(calls);
    await setRecipient(server, member.id, {
      pinSentAt: new Date(Date.now() - PIN_TTL_SECONDS * 1000),
    });
    refusedWith(seen(await calls.verify(code)), 400, pinMessages.notValid);

    const fresh = await sendAndRead(calls);
    await setRecipient(server, member.id, {
      pinSentAt: new Date(Date.now() - (PIN_TTL_SECONDS - 5) * 1000),
    });
    expect(seen(await calls.verify(fresh)).statusCode).toBe(200);
  });

  it('locks the PIN for 15 minutes at the fifth wrong PIN', async () => {
    const { pkg, member } = await pinPackage(server, fx);
    const calls = pinCalls(server, pkg.slug, fx.receiver);
    const code = await sendAndRead(calls);
    for (let n = 1; n <= 4; n++) {
      refusedWith(seen(await calls.verify(wrong(code, n))), 400, pinMessages.notValid);
    }
    refusedWith(seen(await calls.verify(wrong(code, 5))), 429, pinMessages.lockedOut);
    // The right PIN no longer works, and no new one is sent while locked.
    refusedWith(seen(await calls.verify(code)), 429, pinMessages.lockedOut);
    refusedWith(seen(await calls.send()), 429, pinMessages.lockedOut);
    expect((await grant(pkg.slug)).statusCode).toBe(403);

    const [row] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.id, member.id));
    const lockedFor = row!.pinLockedUntil!.getTime() - Date.now();
    expect(lockedFor).toBeGreaterThan((PIN_LOCK_SECONDS - 60) * 1000);
    expect(lockedFor).toBeLessThanOrEqual(PIN_LOCK_SECONDS * 1000);

    // Fifteen minutes on: a new PIN, and a clean count of wrong ones.
    await setRecipient(server, member.id, { pinLockedUntil: new Date(Date.now() - 1000) });
    const next = await sendAndRead(calls);
    refusedWith(seen(await calls.verify(wrong(next))), 400, pinMessages.notValid);
    expect(seen(await calls.verify(next)).statusCode).toBe(200);
    expect((await grant(pkg.slug)).statusCode).toBe(200);
  });

  it('gives parallel guesses no more than five checks', async () => {
    const { pkg, key } = await pinPackage(server, fx);
    const calls = pinCalls(server, pkg.slug, { key });
    const code = await sendAndRead(calls);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => calls.verify(wrong(code, n + 1))),
    );
    answers.forEach(seen);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    refusedWith(seen(await calls.verify(code)), 429, pinMessages.lockedOut);
  });

  it('limits PIN texts per recipient', async () => {
    const { pkg } = await pinPackage(server, fx, { mobile: '+447700900555' });
    const calls = pinCalls(server, pkg.slug, fx.receiver);
    for (let n = 0; n < 5; n++) expect(seen(await calls.send()).statusCode).toBe(200);
    refusedWith(seen(await calls.send()), 429, pinMessages.tooManySends);
  });

  it('refuses removed recipients, expired packages and packages without a PIN', async () => {
    const removed = await pinPackage(server, fx);
    await setRecipient(server, removed.member.id, { removed: true });
    await setRecipient(server, removed.external.id, { removed: true });
    refusedWith(
      await pinCalls(server, removed.pkg.slug, fx.receiver).send(),
      403,
      downloadMessages.removed,
    );
    refusedWith(
      await pinCalls(server, removed.pkg.slug, { key: removed.key }).verify('123456'),
      403,
      downloadMessages.removed,
    );

    const expired = await pinPackage(server, fx);
    await server.ctx.db
      .update(packages)
      .set({ expiresAt: new Date(Date.now() - HOUR) })
      .where(eq(packages.id, expired.pkg.id));
    refusedWith(
      await pinCalls(server, expired.pkg.slug, { key: expired.key }).send(),
      410,
      downloadMessages.expired,
    );

    const open = await pinPackage(server, fx);
    await setRecipient(server, open.member.id, { pinRequired: false });
    refusedWith(
      await pinCalls(server, open.pkg.slug, fx.receiver).send(),
      409,
      pinMessages.notRequired,
    );

    const noMobile = await pinPackage(server, fx, { mobile: null });
    refusedWith(
      await pinCalls(server, noMobile.pkg.slug, fx.receiver).send(),
      409,
      pinMessages.noMobile,
    );

    // Not a recipient at all: the package does not exist for them.
    refusedWith(
      await pinCalls(server, open.pkg.slug, fx.outsider).send(),
      404,
      downloadMessages.notFound,
    );
    const anonymous = await server.app.inject({
      method: 'POST',
      url: `/api/packages/${open.pkg.slug}/pin_verify/`,
      headers: BASE_HEADERS,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers a malformed PIN or a missing key with field errors', async () => {
    const { pkg, key } = await pinPackage(server, fx);
    for (const code of ['12345', '1234567', 'abcdef', '', 123456]) {
      const response = await pinCalls(server, pkg.slug, fx.receiver).verify(code as string);
      expect(response.statusCode, String(code)).toBe(400);
      expect(response.json()).toHaveProperty('code');
    }
    const noKey = await server.app.inject({
      method: 'POST',
      url: `/api/packages/${pkg.slug}/pin_verify_code_external/`,
      headers: BASE_HEADERS,
      payload: { code: '123456' },
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toHaveProperty('key');
    expect((await pinCalls(server, pkg.slug, { key }).verify(' 000000 ')).statusCode).toBe(400);
  });

  it('never shows a PIN in a response or in the log', () => {
    expect(codes.length).toBeGreaterThan(5);
    const text = log.text();
    for (const code of codes) {
      expect(text, 'log').not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
      for (const body of bodies) expect(body).not.toContain(code);
    }
  });
});

/** A Twilio-compatible text message API on loopback that records what it is sent. */
interface FakeSmsApi {
  url: string;
  received: { path: string; authorization: string | undefined; form: URLSearchParams }[];
  /** How it answers the next requests: take the message, fail, or drop the connection. */
  mode: 'accept' | 'fail' | 'hang-up';
  close(): Promise<void>;
}

async function fakeSmsApi(): Promise<FakeSmsApi> {
  const api: Omit<FakeSmsApi, 'url' | 'close'> = { received: [], mode: 'accept' };
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (api.mode === 'hang-up') return request.socket.destroy();
      api.received.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        form: new URLSearchParams(body),
      });
      if (api.mode === 'fail') {
        response.writeHead(503, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ code: 20503, message: 'Service unavailable' }));
      }
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sid: 'SM123', status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(api, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe('PIN verification through a Twilio-compatible API', () => {
  let server: TestServer;
  let fx: Fixture;
  let sms: FakeSmsApi;
  const log = logBuffer();

  beforeAll(async () => {
    sms = await fakeSmsApi();
    server = await startTestServer(
      {
        LOG_LEVEL: 'debug',
        SMS_URL: `${sms.url}/`,
        SMS_ACCOUNT_SID: 'AC0123456789',
        SMS_AUTH_TOKEN: 'auth-token-secret',
        SMS_FROM: '+15005550006',
      },
      { logStream: log },
    );
    fx = await contractFixture(server);
  });
  afterAll(async () => {
    await server.close();
    await sms.close();
  });

  it('posts To, From and Body with basic auth, and the texted PIN works', async () => {
    sms.mode = 'accept';
    const { pkg } = await pinPackage(server, fx);
    const calls = pinCalls(server, pkg.slug, fx.receiver);
    const sent = await calls.send();
    expect(sent.statusCode, sent.body).toBe(200);
    const request = sms.received.at(-1)!;
    expect(request.path).toBe('/2010-04-01/Accounts/AC0123456789/Messages.json');
    expect(request.authorization).toBe(
      `Basic ${Buffer.from('AC0123456789:auth-token-secret').toString('base64')}`,
    );
    expect(request.form.get('To')).toBe(MOBILE);
    expect(request.form.get('From')).toBe('+15005550006');
    const code = /PIN is (\d{6})\./.exec(request.form.get('Body') ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(sent.body).not.toContain(code!);
    expect((await calls.verify(code!)).statusCode).toBe(200);
    expect(log.text()).not.toContain(code!);
    expect(log.text()).not.toContain('auth-token-secret');
  });

  it("answers an outage with the spec's words and does not count the attempt", async () => {
    const { pkg } = await pinPackage(server, fx, { mobile: '+447700900777' });
    const member = pinCalls(server, pkg.slug, fx.receiver);
    // More failures than the recipient's limit of sends: none of them count.
    for (const mode of ['fail', 'hang-up', 'fail', 'hang-up', 'fail', 'hang-up'] as const) {
      sms.mode = mode;
      const response = await member.send();
      refusedWith(response, 502, pinMessages.sendFailed);
    }
    sms.mode = 'accept';
    const before = sms.received.length;
    const sent = await member.send();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sms.received.length).toBe(before + 1);
    expect(log.text()).toContain('PIN text message not sent');
  });
});
