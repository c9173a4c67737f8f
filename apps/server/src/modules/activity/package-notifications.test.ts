import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../../../test/harness';
import { notifyContractWatchers } from './package-notifications';
import { defaultContractSettings } from '../../db/schema';

let server: TestServer;
useTestServer((t) => ({ server } = t));

describe('package activity notifications', () => {
  it('mails every enabled person on the contract’s list, and nobody else', async () => {
    const contract = {
      name: 'Acme',
      settings: {
        ...defaultContractSettings,
        notifications: [
          { name: 'Ops', email: 'ops-watch@example.com', enabled: true },
          { name: 'Off', email: 'off-watch@example.com', enabled: false },
        ],
      },
    };
    const queued = await notifyContractWatchers(
      server.ctx.db,
      server.ctx.config,
      contract,
      'downloaded',
      {
        name: 'Final cut',
        senderName: 'Sam Sender',
      },
    );
    expect(queued).toBe(1);
    const mail = await server.waitForMail((m) =>
      JSON.stringify(m.to).includes('ops-watch@example.com'),
    );
    expect(mail.subject).toBe('Package downloaded: Final cut');
    expect(mail.text).toContain('Hello Ops');
    expect(JSON.stringify((await server.mails()).map((m) => m.to))).not.toContain('off-watch');
  });
});
