import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedPage, SentPage } from '@filerunner/protocol';
import { caller, contractFixture, startTestServer, type TestServer } from '../../../test/harness';
import { downloads, packages } from '../../db/schema';
import { addRecipient, createPackage } from '../downloads/download-fixtures';

let server: TestServer;
let fx: Awaited<ReturnType<typeof contractFixture>>;
let as: ReturnType<typeof caller>;

beforeAll(async () => {
  server = await startTestServer();
  fx = await contractFixture(server);
  as = caller(server);
});
afterAll(() => server.close());

/** A download of `bytesSent` bytes that started `agoSeconds` ago, finished or not. */
async function downloaded(
  pkg: { id: number },
  recipientId: number,
  bytesSent: number,
  agoSeconds: number,
  completed: boolean,
) {
  await server.ctx.db.insert(downloads).values({
    tokenHash: randomBytes(16).toString('hex'),
    packageId: pkg.id,
    recipientId,
    size: 5000,
    ip: '203.0.113.7',
    expiresAt: new Date(Date.now() + 3_600_000),
    bytesSent,
    // now() keeps its microseconds: the lists must show the same milliseconds as the pages.
    firstByteAt: sql`now() - make_interval(secs => ${agoSeconds})`,
    lastByteAt: sql`now()`,
    completedAt: completed ? sql`now()` : null,
  });
}

describe('the Inbox and Sent lists', () => {
  it('show each package exactly as its own page does', async () => {
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: 'one',
      name: 'Quarterly figures',
    });
    await server.ctx.db
      .update(packages)
      .set({ message: 'See the second sheet', pinVerify: true, sentAt: sql`now()` })
      .where(eq(packages.id, pkg.id));
    const receiver = await addRecipient(server, pkg.id, fx.receiver.user, {
      mobile: '+15551234567',
      pinRequired: true,
      pinVerifiedAt: sql`now()` as unknown as Date,
      seenAt: sql`now()` as unknown as Date,
      downloaded: 'complete',
    });
    await addRecipient(
      server,
      pkg.id,
      { id: fx.outsider.user.id, email: 'someone@example.com' },
      { userId: null, mobile: '+15557654321', pinRequired: true },
    );
    await downloaded(pkg, receiver.id, 2500, 90, false);
    await downloaded(pkg, receiver.id, 5000, 30, true);

    const sentList = (
      await as(fx.sender).get('/api/packages/sent/', { contract_slug: fx.contract.slug })
    ).json() as SentPage;
    const sentOne = (await as(fx.sender).get(`/api/packages/sent/${pkg.slug}/`)).json();
    expect(sentOne.recipients).toHaveLength(2);
    expect(sentOne.recipients[0].downloads).toHaveLength(2);
    expect(sentList.packages.find((p) => p.slug === pkg.slug)).toEqual(sentOne);

    const receivedList = (
      await as(fx.receiver).get('/api/packages/received/', { contract_slug: fx.contract.slug })
    ).json() as ReceivedPage;
    const receivedOne = (await as(fx.receiver).get(`/api/packages/received/${pkg.slug}/`)).json();
    expect(receivedOne).toMatchObject({ seen: true, locked: false, downloaded: true });
    expect(receivedList.packages.find((p) => p.slug === pkg.slug)).toEqual(receivedOne);
  });

  it('answer the same pages once PostgreSQL keeps one plan for their statements', async () => {
    // It plans a prepared statement for its values five times, then may keep a plan for any
    // values; the pool hands calls in a row the same connection.
    const pages = async () =>
      Promise.all(
        [
          as(fx.receiver).get('/api/packages/received/', { contract_slug: fx.contract.slug }),
          as(fx.receiver).get('/api/packages/received/', { page: 2 }),
          as(fx.sender).get('/api/packages/sent/', { contract_slug: fx.contract.slug }),
          as(fx.sender).get('/api/packages/sent/', { page: 2 }),
        ].map(async (answer) => (await answer).json()),
      );
    const first = await pages();
    expect(first[0].packages.length).toBeGreaterThan(0);
    for (let call = 0; call < 8; call++) expect(await pages()).toEqual(first);
  });

  it('answer an empty page for a contract slug that names nothing', async () => {
    const received = await as(fx.receiver).get('/api/packages/received/', {
      contract_slug: 'no-such-contract',
    });
    expect(received.json()).toMatchObject({ packages: [], total: 0, has_more: false, unseen: 0 });
    const sent = await as(fx.sender).get('/api/packages/sent/', {
      contract_slug: 'no-such-contract',
    });
    expect(sent.json()).toMatchObject({ packages: [], total: 0, has_more: false });
  });
});
