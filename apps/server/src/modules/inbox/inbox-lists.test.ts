import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { limits, type ReceivedPage, type SentPage } from '@filerunner/protocol';
import {
  contractFixture,
  useFixtureServer,
  type Caller,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { downloadGrants, downloads, packages } from '../../db/schema';
import { addRecipient, createPackage } from '../downloads/download-fixtures';

let server: TestServer;
let fx: ContractFixture;
let as: Caller;

useFixtureServer((t) => ({ server, fx, as } = t));

/** A download of `bytesSent` bytes that started `agoSeconds` ago, finished or not. */
async function downloaded(
  pkg: { id: number },
  recipientId: number,
  bytesSent: number,
  agoSeconds: number,
  completed: boolean,
) {
  const [grant] = await server.ctx.db
    .insert(downloadGrants)
    .values({
      tokenHash: randomBytes(16).toString('hex'),
      packageId: pkg.id,
      recipientId,
      size: 5000,
      ip: '203.0.113.7',
      expiresAt: new Date(Date.now() + 3_600_000),
    })
    .returning();
  await server.ctx.db.insert(downloads).values({
    grantId: grant!.id,
    recipientId,
    ip: '203.0.113.7',
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

  it('answer later pages with exactly the packages that come there, newest first', async () => {
    // A contract of its own, so that its lists hold these packages only. Sending times repeat and
    // run out of creation order: a tie goes to the newer package (higher id).
    const own = await contractFixture(server);
    const count = 3 * limits.receivedPageSize + 2;
    const start = Date.now() - 3_600_000;
    const made: Array<{ id: number; slug: string; sentAt: number }> = [];
    for (let i = 0; i < count; i++) {
      const { pkg } = await createPackage(server, {
        contractId: own.contract.id,
        senderId: own.sender.user.id,
        files: 'none',
        name: `Later page ${i}`,
        // Still uploading: on no list, though its time falls among the others.
        status: i === 7 ? 'uploading' : 'complete',
      });
      const sentAt = start + ((i * 17) % 23) * 60_000;
      await server.ctx.db
        .update(packages)
        .set({ sentAt: new Date(sentAt), message: `Message ${i}` })
        .where(eq(packages.id, pkg.id));
      const receiver = await addRecipient(server, pkg.id, own.receiver.user, {
        seenAt: i % 3 === 0 ? new Date(sentAt + 1000) : null,
        downloaded: i % 4 === 0 ? 'complete' : 'none',
      });
      if (i % 4 === 0) await downloaded(pkg, receiver.id, 5000, 60, true);
      if (i % 5 === 0) {
        await addRecipient(
          server,
          pkg.id,
          { id: own.outsider.user.id, email: `later-${i}@example.com` },
          { userId: null, mobile: '+15550001111', pinRequired: true },
        );
      }
      if (i !== 7) made.push({ id: pkg.id, slug: pkg.slug, sentAt });
    }
    const newestFirst = made
      .sort((a, b) => b.sentAt - a.sentAt || b.id - a.id)
      .map((pkg) => pkg.slug);
    const slugs = (page: { packages: Array<{ slug: string }> }) => page.packages.map((p) => p.slug);
    // With and without the contract filter: each its own statement.
    const filters: Array<Record<string, string>> = [{ contract_slug: own.contract.slug }, {}];

    const sent = async (query: Record<string, string | number>) =>
      (await as(own.sender).get('/api/packages/sent/', query)).json() as SentPage;
    const sentSize = limits.sentPageSize;
    for (const filter of filters) {
      const second = await sent({ ...filter, page: 2 });
      expect(slugs(second)).toEqual(newestFirst.slice(sentSize, 2 * sentSize));
      const third = await sent({ ...filter, page: 3 });
      expect(slugs(third)).toEqual(newestFirst.slice(2 * sentSize));
      expect(third).toMatchObject({ total: count - 1, has_more: false });
      // Each package with its recipients and their downloads, as its own page shows it.
      for (const pkg of [...second.packages, ...third.packages]) {
        expect(pkg).toEqual((await as(own.sender).get(`/api/packages/sent/${pkg.slug}/`)).json());
      }
    }
    const withDownloads = (await sent({ page: 2 })).packages.filter(
      (p) => p.recipients[0]!.downloads.length > 0,
    );
    expect(withDownloads.length).toBeGreaterThan(0);

    const received = async (query: Record<string, string | number>) =>
      (await as(own.receiver).get('/api/packages/received/', query)).json() as ReceivedPage;
    const size = limits.receivedPageSize;
    const pages: ReceivedPage[] = [];
    for (const filter of filters) {
      for (const page of [2, 3, 4]) {
        const answer = await received({ ...filter, page });
        expect(slugs(answer)).toEqual(newestFirst.slice((page - 1) * size, page * size));
        pages.push(answer);
      }
    }
    expect(pages[2]).toMatchObject({ total: count - 1, has_more: false });
    // Opening a package marks it seen, so each is opened after the lists were read.
    for (const pkg of pages.slice(0, 3).flatMap((page) => page.packages)) {
      const i = Number(pkg.name.split(' ')[2]);
      expect(pkg).toMatchObject({ seen: i % 3 === 0, downloaded: i % 4 === 0 });
      const opened = (await as(own.receiver).get(`/api/packages/received/${pkg.slug}/`)).json();
      expect(pkg).toEqual({ ...opened, seen: i % 3 === 0 });
    }
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
