import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo } from 'node:net';
import { parse as parseCsv } from 'csv-parse/sync';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { adminMessages, todayIso } from '@filerunner/protocol';
import type { BuiltApp } from '../../app';
import { caller, contractFixture, startTestServer, type TestServer } from '../../../test/harness';
import { packageRecipients, packages } from '../../db/schema';

const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, callback) {
    simpleParser(stream).then((m) => {
      received.push(m);
      callback();
    }, callback);
  },
});

let server: TestServer;
let as: ReturnType<typeof caller>;
let fx: Awaited<ReturnType<typeof contractFixture>>;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

beforeAll(async () => {
  const port = await new Promise<number>((r) =>
    smtp.listen(0, '127.0.0.1', () => r((smtp.server.address() as AddressInfo).port)),
  );
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  as = caller(server);
  fx = await contractFixture(server);
  const add = async (name: string, sentAt: Date, contractId = fx.contract.id) => {
    const [pkg] = await server.ctx.db
      .insert(packages)
      .values({
        slug: `${name}-${fx.contract.id}`,
        contractId,
        senderId: fx.sender.user.id,
        name,
        status: 'complete',
        bytes: 5_000_000_000,
        numFiles: 3,
        validFrom: sentAt,
        expiresAt: new Date(sentAt.getTime() + 10 * DAY),
        sentAt,
      })
      .returning();
    await server.ctx.db.insert(packageRecipients).values({
      packageId: pkg!.id,
      userId: fx.receiver.user.id,
      email: fx.receiver.user.email,
      downloaded: 'complete',
    });
  };
  await add('=Formula trick', daysAgo(1));
  await add('Week old', daysAgo(6));
  await add('Month old', daysAgo(20));
  await add('Too old', daysAgo(40));
  for (let i = 0; i < 16; i++) await add(`Bulk ${i}`, daysAgo(100 + i));
  await add('Other contract', daysAgo(1), await otherContractId());
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function otherContractId(): Promise<number> {
  const contracts = (await as(fx.outsider).get('/api/contracts/')).json();
  return contracts[0].id;
}

const requestReport = (payload: object) =>
  as(fx.admin).post(`/api/contracts/${fx.contract.slug}/activity/csv/`, payload);

/** The next mail the SMTP server receives, running `app`'s jobs and outbox until it arrives. */
async function reportMail(app: BuiltApp = server): Promise<ParsedMail> {
  const before = received.length;
  await vi.waitFor(
    async () => {
      await app.jobs.drain();
      await app.outbox.drain();
      if (received.length === before) throw new Error('the report mail has not arrived');
    },
    { timeout: 10_000, interval: 50 },
  );
  return received[received.length - 1]!;
}

describe('activity', () => {
  it('lists the contract’s packages, newest first, 15 a page, with search', async () => {
    const activity = `/api/packages/${fx.contract.slug}/activity/`;
    const first = await as(fx.admin).get(activity);
    expect(first.json()).toMatchObject({ page: 1, total: 20, has_more: true });
    expect(first.json().packages).toHaveLength(15);
    expect(first.json().packages[0]).toMatchObject({
      name: '=Formula trick',
      sender: { email: fx.sender.user.email },
      bytes: 5_000_000_000,
    });
    const second = await as(fx.admin).get(activity, { page: 2 });
    expect(second.json().packages).toHaveLength(5);
    const search = await as(fx.admin).get(activity, { text: 'month' });
    expect(search.json().packages.map((p: { name: string }) => p.name)).toEqual(['Month old']);
    const byRecipient = await as(fx.admin).get(activity, { text: fx.receiver.user.email });
    expect(byRecipient.json().total).toBe(20);
    const wildcard = await as(fx.admin).get(activity, { text: '%' });
    expect(wildcard.json().total).toBe(0);
  });
});

describe('the emailed CSV report', () => {
  it('holds exactly the packages of the last 7 days, with ISO dates', async () => {
    const queued = await requestReport({ report_period: '7' });
    expect(queued.statusCode).toBe(202);
    expect(queued.json().detail).toBe(adminMessages.reportQueued);
    const mail = await reportMail();
    expect(JSON.stringify(mail.to)).toContain(fx.admin.user.email);
    const attachment = mail.attachments[0]!;
    expect(attachment.contentType).toBe('text/csv');
    const rows = parseCsv(attachment.content.toString('utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.Package)).toEqual(["'=Formula trick", 'Week old']);
    expect(rows[0]!['Date sent']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(rows[0]!.Expires).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(rows[0]).toMatchObject({
      Sender: 'Test User',
      Files: '3',
      Bytes: '5000000000',
      'Downloaded by': fx.receiver.user.email,
    });
  });

  it('covers a custom range and checks its dates', async () => {
    const from = todayIso(daysAgo(45));
    const to = todayIso(daysAgo(15));
    expect(
      (await requestReport({ report_period: 'custom', date_from: from, date_to: to })).statusCode,
    ).toBe(202);
    const rows = parseCsv((await reportMail()).attachments[0]!.content.toString('utf8'), {
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((r) => r.Package)).toEqual(['Month old', 'Too old']);

    expect((await requestReport({ report_period: 'custom' })).json()).toEqual({
      date_from: [adminMessages.exportDatesRequired],
    });
    expect(
      (await requestReport({ report_period: 'custom', date_from: to, date_to: from })).json(),
    ).toEqual({ date_to: [adminMessages.exportEndBeforeStart] });
    const tomorrow = todayIso(new Date(Date.now() + DAY));
    expect(
      (await requestReport({ report_period: 'custom', date_from: from, date_to: tomorrow })).json(),
    ).toEqual({ date_to: [adminMessages.exportFutureDate] });
    expect((await requestReport({ report_period: '12' })).statusCode).toBe(400);
  });

  it('survives a restart between the request and the mail', async () => {
    expect((await requestReport({ report_period: 30 })).statusCode).toBe(202);
    // A second app on the same database stands in for the restarted server; the first never ran the job.
    const { buildApp } = await import('../../app');
    const restarted = await buildApp(server.ctx.config);
    try {
      const rows = parseCsv(
        (await reportMail(restarted)).attachments[0]!.content.toString('utf8'),
        {
          columns: true,
        },
      ) as Record<string, string>[];
      expect(rows.map((r) => r.Package)).toEqual(["'=Formula trick", 'Week old', 'Month old']);
    } finally {
      await restarted.app.close();
    }
  });
});
