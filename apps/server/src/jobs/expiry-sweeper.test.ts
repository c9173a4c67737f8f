import { describe, expect, it } from 'vitest';
import {
  setContractSettings,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../test/harness';
import { eq } from 'drizzle-orm';
import { formatDateTime } from '@filerunner/protocol';
import { packages, users } from '../db/schema';

let server: TestServer;
let fx: ContractFixture;
const HOUR = 3_600_000;
const expiries = new Map<string, Date>();

useFixtureServer(async (t) => {
  ({ server, fx } = t);
  await setContractSettings(server, fx.contract.id, {
    notifications: [
      { name: 'Watch', email: 'expiry-watch@example.com', enabled: true },
      { name: 'Admin', email: fx.admin.user.email, enabled: true },
    ],
  });
  await server.ctx.db
    .update(users)
    .set({ timezone: 'Asia/Tokyo' })
    .where(eq(users.id, fx.admin.user.id));
  const add = (name: string, expiresInHours: number) => {
    const expiresAt = new Date(Date.now() + expiresInHours * HOUR);
    expiries.set(name, expiresAt);
    return server.ctx.db.insert(packages).values({
      slug: `${name}-${fx.contract.id}`,
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      name,
      status: 'complete',
      validFrom: new Date(Date.now() - 48 * HOUR),
      expiresAt,
    });
  };
  await add('Soon gone', 12);
  await add('Plenty of time', 72);
  await add('Already expired', -1);
});

describe('expiry sweep', () => {
  it('tells the notification list once about each package in its last day', async () => {
    expect(await server.expirySweeper.sweep()).toBe(1);
    const mail = await server.waitForMail((m) =>
      JSON.stringify(m.to).includes('expiry-watch@example.com'),
    );
    expect(mail.subject).toBe('Package expiring soon: Soon gone');
    expect(mail.text).toContain('sent by Test User');
    // An address without an account reads the end in UTC; the admin in the zone they chose.
    const end = expiries.get('Soon gone')!;
    expect(mail.text).toContain(`It expires at ${formatDateTime(end, 'UTC')} (UTC).`);
    const toAdmin = await server.waitForMail(
      (m) =>
        JSON.stringify(m.to).includes(fx.admin.user.email) &&
        m.subject === 'Package expiring soon: Soon gone',
    );
    expect(toAdmin.text).toContain(
      `It expires at ${formatDateTime(end, 'Asia/Tokyo')} (Asia/Tokyo).`,
    );

    expect(await server.expirySweeper.sweep()).toBe(0);
    await server.outbox.drain();
    const toWatcher = (await server.mails()).filter((m) =>
      JSON.stringify(m.to).includes('expiry-watch'),
    );
    expect(toWatcher).toHaveLength(1);
  });
});
