import { describe, expect, it } from 'vitest';
import { defaultFilesystemConstraints } from '@filerunner/protocol';
import {
  createUser,
  login,
  uniqueEmail,
  useTestServer,
  type TestServer,
} from '../../../test/harness';
import { seedDemo } from '../../seed/demo';
import { createContract, setContractEnabled } from './contracts.service';

let server: TestServer;
useTestServer((t) => ({ server } = t), { DEMO_PASSWORD: 'Demo-pass7!' });

describe('demo data', () => {
  it('seeds the demo contract once, with working logins and the right permissions', async () => {
    const first = await seedDemo(server.ctx);
    expect(first).toEqual({ password: 'Demo-pass7!', generated: false });
    expect(await seedDemo(server.ctx)).toBeNull();

    const admin = await login(server, 'admin@example.com', 'Demo-pass7!');
    const [contract] = (
      await server.app.inject({ method: 'GET', url: '/api/contracts/', headers: admin })
    ).json();
    expect(contract).toMatchObject({
      slug: 'demo',
      name: 'Demo Contract',
      permissions: { admin: true, send: true },
    });
    expect(contract.settings).toMatchObject({ pin_verification: 'none', can_add_ad_hoc: false });

    const recipient = await login(server, 'recipient@example.com', 'Demo-pass7!');
    const memberships = (
      await server.app.inject({ method: 'GET', url: '/api/user/permissions/', headers: recipient })
    ).json();
    expect(memberships).toEqual([
      {
        contract: { id: contract.id, name: 'Demo Contract', slug: 'demo' },
        admin: false,
        send: false,
        enabled: true,
        master_group: false,
        groups: [{ name: 'Partners' }],
      },
    ]);
    const sender = await login(server, 'sender@example.com', 'Demo-pass7!');
    const senderGroups = (
      await server.app.inject({ method: 'GET', url: '/api/user/permissions/', headers: sender })
    ).json()[0].groups;
    expect(senderGroups).toEqual([{ name: 'Design' }, { name: 'Partners' }]);
  });
});

describe('GET /contracts/', () => {
  it('lists only enabled contracts of the caller, and needs a login', async () => {
    const email = uniqueEmail('owner');
    const { contract } = await createContract(server.ctx, {
      name: 'Zeta Works',
      adminEmail: email,
    });
    const other = await createUser(server);
    const headers = await login(server, other.email);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/contracts/', headers })).json(),
    ).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: '/api/contracts/' })).statusCode).toBe(
      401,
    );

    const invite = await server.waitForMail((m) => JSON.stringify(m.to).includes(email));
    expect(invite.subject).toContain('Zeta Works');
    expect(await setContractEnabled(server.ctx, contract.slug, false)).toBe(true);
  });
});

describe('GET /filesystem/constraints/', () => {
  it('serves the filename constraints without a login', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/filesystem/constraints/',
    });
    expect(response.json()).toEqual(defaultFilesystemConstraints);
    for (const p of response.json().invalid_filename_patterns)
      expect(() => new RegExp(p.regex, p.flags)).not.toThrow();
  });
});
