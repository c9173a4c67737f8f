import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import WebSocket from 'ws';
import { MAX_SOCKETS_PER_SESSION, SESSION_ENDED_CLOSE } from '@filerunner/protocol';
import { contractFixture, login, startTestServer, type TestServer } from '../../test/harness';
import { fileBytes, TestUploader } from '../../test/uploader';
import { sessions } from '../db/schema';
import { insertGroup } from '../modules/contracts/groups.repository';
import { installErrorHandler } from '../http/error-handler';
import { RealtimeHub } from './hub';
import { realtimeRoutes } from './realtime.routes';
import { tokenHash } from '../http/secrets';

// Two server processes' worth of app on one PostgreSQL, as behind a load balancer: a package
// sent through node A must reach a browser whose socket is held by node B.
let nodeA: TestServer;
let nodeB: TestServer;
let originA: string;
let originB: string;
let fx: Awaited<ReturnType<typeof contractFixture>>;
const PUBLIC_ORIGIN = 'http://127.0.0.1:8080';

beforeAll(async () => {
  nodeA = await startTestServer();
  nodeB = await startTestServer({ DATABASE_URL: nodeA.ctx.config.databaseUrl! });
  originA = await nodeA.app.listen({ host: '127.0.0.1', port: 0 });
  originB = await nodeB.app.listen({ host: '127.0.0.1', port: 0 });
  fx = await contractFixture(nodeA);
  // A sender may send to the people of their groups.
  await insertGroup(nodeA.ctx.db, fx.contract.id, {
    name: 'Design',
    members: [fx.sender.user.id, fx.receiver.user.id],
  });
});
afterAll(async () => {
  // B first: A's close drops the database both use.
  await nodeB?.close();
  await nodeA?.close();
});

interface Client {
  socket: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the first message (already received or coming) that `match` accepts. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<unknown>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens the realtime socket on `origin` as a browser on the app's page would. */
function connect(
  origin: string,
  headers: Record<string, string>,
  options: { autoPong?: boolean } = {},
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/api/ws`, {
      headers,
      ...options,
    });
    const messages: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    socket.on('message', (data) => {
      messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    const next = (match: (m: Record<string, unknown>) => boolean, timeoutMs = 5000) =>
      new Promise((found, fail) => {
        const timer = setTimeout(() => fail(new Error('no matching message')), timeoutMs);
        const look = () => {
          const hit = messages.find(match);
          if (hit) {
            clearTimeout(timer);
            found(hit);
          } else waiters.push(look);
        };
        look();
      });
    socket.on('open', () => resolve({ socket, messages, next, closed }));
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.on('error', reject);
  });
}

const browser = (cookie: string) => ({ cookie, origin: PUBLIC_ORIGIN });

/**
 * Uploads a one-file package from the fixture's sender through node A to `recipients`, and
 * answers it with the call that sends it.
 */
async function uploadThroughA(recipients: { id: number }[], name: string, validFrom?: Date) {
  const sender = new TestUploader(nodeA, originA, fx.sender.headers);
  const files = [{ path: 'hello.txt', bytes: fileBytes(64, 3) }];
  const pkg = validFrom
    ? await sender.create({
        contract: fx.contract.slug,
        name,
        recipients,
        valid_from: validFrom.toISOString(),
        valid_to: new Date(validFrom.getTime() + 48 * 3_600_000).toISOString(),
        expected_files: 1,
        expected_size: 64,
        intended_files: [{ filename: 'hello.txt', size: 64 }],
      })
    : await sender.createOf(files, { contract: fx.contract.slug, name, recipients });
  const reported = await sender.formPost(await sender.grants(pkg, files), files);
  await sender.upload(pkg, 'updatefiles', { files: reported });
  const send = async () => {
    const done = await sender.upload(pkg, 'update', { complete: true });
    expect(done.status).toBe(200);
  };
  return { pkg, send };
}

describe('realtime package notifications', () => {
  it("tells the sender on another node when a recipient's download starts and ends", async () => {
    const { pkg, send } = await uploadThroughA([{ id: fx.receiver.user.id }], 'Watched');
    await send();
    const sender = await connect(originB, browser(fx.sender.headers.cookie));
    const receiver = await connect(originB, browser(fx.receiver.headers.cookie));
    await sender.next((m) => m.type === 'user_connected');

    const granted = await fetch(`${originA}/api/packages/${pkg.slug}/download/`, {
      headers: fx.receiver.headers,
    });
    expect(granted.status).toBe(200);
    const { download_url } = (await granted.json()) as { download_url: string };
    const tar = await fetch(`${originA}${new URL(download_url).pathname}`);
    expect(tar.status).toBe(200);
    await tar.arrayBuffer();

    // One response that is the whole download: it started and finished, the sender hears of it.
    expect(await sender.next((m) => m.type === 'package_downloaded')).toEqual({
      type: 'package_downloaded',
      package: { slug: pkg.slug },
    });
    // Only the sender: the recipient's own screens show nothing new.
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.messages.map((m) => m.type)).not.toContain('package_downloaded');
    for (const client of [sender, receiver]) client.socket.close();
  });

  it('tells the recipient connected to another node the moment a package is sent, and nobody else', async () => {
    const receiver = await connect(originB, browser(fx.receiver.headers.cookie));
    // The same person in a second tab, served by the other node.
    const secondTab = await connect(originA, browser(fx.receiver.headers.cookie));
    const bystander = await connect(originB, browser(fx.outsider.headers.cookie));
    await receiver.next((m) => m.type === 'user_connected');
    expect(receiver.messages[0]).toEqual({ type: 'user_connected', email: fx.receiver.user.email });

    const { pkg, send } = await uploadThroughA([{ id: fx.receiver.user.id }], 'Realtime');
    // Created and uploaded, but not sent: nothing to see yet.
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.messages.map((m) => m.type)).toEqual(['user_connected']);
    await send();
    const event = await receiver.next((m) => m.type === 'package_received');
    expect(event).toEqual({
      type: 'package_received',
      package: { slug: pkg.slug, contract_slug: fx.contract.slug },
    });
    // Exactly one event for one send, and none to someone the package was not sent to.
    expect(receiver.messages.filter((m) => m.type === 'package_received')).toHaveLength(1);
    expect(await secondTab.next((m) => m.type === 'package_received')).toEqual(event);
    expect(bystander.messages.map((m) => m.type)).toEqual(['user_connected']);

    // The browser's own heartbeat is answered.
    receiver.socket.send(JSON.stringify({ type: 'ping' }));
    await receiver.next((m) => m.type === 'pong');
    for (const client of [receiver, secondTab, bystander]) client.socket.close();
  });

  it('tells the recipient, by mail and socket, only when the access period starts', async () => {
    const receiver = await connect(originB, browser(fx.receiver.headers.cookie));
    await receiver.next((m) => m.type === 'user_connected');
    const start = new Date(Date.now() + 4000);
    const name = 'Opens later';
    const { pkg, send } = await uploadThroughA([{ id: fx.receiver.user.id }], name, start);
    await send();

    // Sent, but not open yet: the recipient's API answers 404, so nobody is told.
    const mailFor = (m: { to: string; subject: string; text: string }) =>
      m.to.includes(fx.receiver.user.email) &&
      (m.text.includes(pkg.slug) || m.subject.includes(name));
    await nodeA.outbox.drain();
    await nodeA.jobs.drain();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await nodeA.mails()).filter(mailFor)).toEqual([]);
    expect(receiver.messages.filter((m) => m.type === 'package_received')).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, start.getTime() - Date.now() + 50));
    await nodeA.jobs.drain();
    expect(await receiver.next((m) => m.type === 'package_received')).toEqual({
      type: 'package_received',
      package: { slug: pkg.slug, contract_slug: fx.contract.slug },
    });
    const mail = await nodeA.waitForMail(mailFor);
    expect(mail.text).toContain(pkg.slug);
    receiver.socket.close();
  });

  it('keeps delivering after the database drops the listening connection', async () => {
    const receiver = await connect(originB, browser(fx.receiver.headers.cookie));
    await receiver.next((m) => m.type === 'user_connected');
    // As a database restart or failover would: every listening connection is cut.
    await nodeA.ctx.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query ilike 'listen filerunner_events%'`,
    );
    // Back again, node B tells its browsers they may have missed something.
    await receiver.next((m) => m.type === 'resync', 10_000);
    const { pkg, send } = await uploadThroughA([{ id: fx.receiver.user.id }], 'After the drop');
    await send();
    expect(await receiver.next((m) => m.type === 'package_received')).toMatchObject({
      package: { slug: pkg.slug },
    });
    receiver.socket.close();
  });

  it('refuses a socket from another site, even with a valid session cookie', async () => {
    await expect(
      connect(originB, { cookie: fx.receiver.headers.cookie, origin: 'https://evil.example' }),
    ).rejects.toThrow('refused 403');
    await expect(connect(originB, { cookie: fx.receiver.headers.cookie })).rejects.toThrow(
      'refused 403',
    );
  });

  it('refuses a socket without a session', async () => {
    await expect(connect(originB, { origin: PUBLIC_ORIGIN })).rejects.toThrow('refused 401');
    await expect(
      connect(originB, browser('filerunner_session=not-a-session-token')),
    ).rejects.toThrow('refused 401');
  });

  it('refuses sockets past the cap of one sign-in, and no other sign-in', async () => {
    const headers = await login(nodeB, fx.sender.user.email);
    const open: Client[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) {
      open.push(await connect(originB, browser(headers.cookie)));
    }
    const refused = connect(originB, browser(headers.cookie));
    await expect(refused).rejects.toThrow('refused 429');
    // The person's other sign-in (another browser) is not held back by this one's tabs.
    const other = await login(nodeB, fx.sender.user.email);
    const elsewhere = await connect(originB, browser(other.cookie));
    // A tab closed makes room for another.
    open.pop()!.socket.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await connect(originB, browser(headers.cookie));
    for (const client of [...open, elsewhere, again]) client.socket.close();
  });

  it('closes the socket when its session logs out, on whichever node the logout lands', async () => {
    const headers = await login(nodeA, fx.receiver.user.email);
    const onB = await connect(originB, browser(headers.cookie));
    const onA = await connect(originA, browser(headers.cookie));
    // Another session of the same user stays connected.
    const other = await connect(originB, browser(fx.receiver.headers.cookie));

    const logout = await nodeA.app.inject({ method: 'POST', url: '/api/logout/', headers });
    expect(logout.statusCode).toBe(204);
    expect(await onB.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: 'session ended' });
    expect(await onA.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: 'session ended' });
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    other.socket.close();
    // The ended session cannot open a new one.
    await expect(connect(originB, browser(headers.cookie))).rejects.toThrow('refused 401');
  });

  it('closes the socket when its session expires', async () => {
    const headers = await login(nodeA, fx.receiver.user.email);
    const token = headers.cookie.split('=')[1]!;
    await nodeA.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1500) })
      .where(eq(sessions.tokenHash, tokenHash(token)));
    const client = await connect(originB, browser(headers.cookie));
    const started = Date.now();
    expect(await client.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: 'session ended' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    // A hub of its own with a fast heartbeat, on node B's database and sessions.
    const app = Fastify();
    await app.register(cookie);
    installErrorHandler(app);
    const hub = new RealtimeHub({
      databaseUrl: nodeA.ctx.config.databaseUrl!,
      sessions: nodeB.ctx.sessions,
      log: nodeB.app.log,
      pingIntervalMs: 100,
      pongTimeoutMs: 400,
    });
    await hub.start();
    await app.register(realtimeRoutes, {
      hub,
      sessions: nodeB.ctx.sessions,
      publicUrl: PUBLIC_ORIGIN,
    });
    app.addHook('onClose', () => hub.stop());
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const answering = await connect(origin, browser(fx.receiver.headers.cookie));
      const silent = await connect(origin, browser(fx.receiver.headers.cookie), {
        autoPong: false,
      });
      const started = Date.now();
      // Cut without a close frame, as a dead link would be.
      expect((await silent.closed).code).toBe(1006);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answering.socket.readyState).toBe(WebSocket.OPEN);
      expect(hub.size).toBe(1);
      answering.socket.close();
    } finally {
      await app.close();
    }
  });
});
