import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { outbox } from '../db/schema';
import {
  BASE_HEADERS,
  createUser,
  linkIn,
  startTestServer,
  type TestServer,
} from '../../test/harness';

/** A real SMTP server on loopback that keeps what it receives. */
function smtpSink(port = 0) {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  const listening = new Promise<number>((resolve) =>
    smtp.listen(port, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
  );
  return { received, listening, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

let sink: ReturnType<typeof smtpSink>;
let port: number;
let server: TestServer;
beforeAll(async () => {
  sink = smtpSink();
  port = await sink.listening;
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

const forgot = (email: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/user/forgot_password/',
    headers: BASE_HEADERS,
    payload: { email },
  });

/** Drains the outbox until the sink has received what `check` looks for. */
async function until(check: () => boolean, what: string) {
  await vi.waitFor(
    async () => {
      await server.outbox.drain();
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: 5000, interval: 50 },
  );
}

describe('mail over SMTP', () => {
  it('delivers the reset mail to a real SMTP server', async () => {
    const user = await createUser(server);
    await forgot(user.email);
    await until(() => sink.received.some((m) => m.subject?.includes('Reset')), 'the reset mail');
    const mail = sink.received.find((m) => JSON.stringify(m.to).includes(user.email))!;
    expect(mail.from?.text).toContain('FileRunner');
    expect(linkIn(mail)).toMatch(
      new RegExp(`^http://127.0.0.1:8080/resetpassword/${user.uid}/[\\w-]{43}$`),
    );
  });

  it('keeps a mail through an SMTP outage and sends it when the server is back', async () => {
    await sink.close();
    const user = await createUser(server);
    await forgot(user.email);
    // The reset mail is queued after the answer.
    await server.ctx.pendingWork.settled();
    await server.outbox.drain();
    const [pending] = await server.ctx.db
      .select()
      .from(outbox)
      .where(sql`${outbox.sentAt} is null`);
    expect(pending).toMatchObject({ attempts: 1 });
    expect(pending!.lastError).toBeTruthy();

    sink = smtpSink(port);
    await sink.listening;
    // Instead of waiting out the retry delay, make the mail due now.
    await server.ctx.db
      .update(outbox)
      .set({ nextAttemptAt: new Date() })
      .where(sql`${outbox.sentAt} is null`);
    await until(
      () => sink.received.some((m) => JSON.stringify(m.to).includes(user.email)),
      'the delayed mail',
    );
    const [left] = await server.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(sql`${outbox.sentAt} is null`);
    expect(left!.n).toBe(0);
  });
});
