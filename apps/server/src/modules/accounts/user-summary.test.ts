import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contracts, groupMembers, groups, memberships, storageAppGroups } from '../../db/schema';
import { createUser, login, useTestServer, type TestServer } from '../../../test/harness';

// The user's summary, memberships and contracts are each read in one statement; these pin what
// those statements gather: group names per contract, only enabled memberships in the summary,
// storage locations per contract, all in name order.

let server: TestServer;
useTestServer((t) => ({ server } = t));

async function contractWith(name: string, groupNames: string[], userId: number) {
  const { db } = server.ctx;
  const [contract] = await db
    .insert(contracts)
    .values({ name, slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${process.pid}` })
    .returning();
  await db
    .insert(memberships)
    .values({ contractId: contract!.id, userId, admin: name.startsWith('A') });
  for (const groupName of groupNames) {
    const [group] = await db
      .insert(groups)
      .values({ contractId: contract!.id, name: groupName })
      .returning();
    await db.insert(groupMembers).values({ groupId: group!.id, userId });
  }
  // A group of the contract the user is not in is never listed.
  await db.insert(groups).values({ contractId: contract!.id, name: 'Others' });
  return contract!;
}

describe("the user's summary, memberships and contracts", () => {
  it('gathers groups and storage locations per contract', async () => {
    const user = await createUser(server);
    const a = await contractWith('A contract', ['Zeta', 'Alpha'], user.id);
    const b = await contractWith('B contract', ['Beta', 'Alpha'], user.id);
    const off = await contractWith('C contract', ['Gamma'], user.id);
    await server.ctx.db
      .update(memberships)
      .set({ enabled: false })
      .where(eq(memberships.contractId, off.id));
    await server.ctx.db.insert(storageAppGroups).values([
      { contractId: a.id, name: 'Second', container: `second-${a.id}` },
      { contractId: a.id, name: 'First', container: `first-${a.id}` },
    ]);
    const headers = await login(server, user.email);
    const get = async (url: string) => {
      const response = await server.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode).toBe(200);
      return response.json();
    };

    expect(await get('/api/user/')).toMatchObject({
      admin: true,
      receive: true,
      groups: ['Alpha', 'Zeta', 'Beta'],
    });
    const permissions = (await get('/api/user/permissions/')) as Array<{
      contract: { id: number };
      enabled: boolean;
      groups: { name: string }[];
    }>;
    expect(permissions.map((m) => [m.contract.id, m.enabled, m.groups])).toEqual([
      [a.id, true, [{ name: 'Alpha' }, { name: 'Zeta' }]],
      [b.id, true, [{ name: 'Alpha' }, { name: 'Beta' }]],
      [off.id, false, [{ name: 'Gamma' }]],
    ]);
    const listed = (await get('/api/contracts/')) as Array<{
      id: number;
      storage_app_groups: { name: string }[];
    }>;
    expect(listed.map((c) => [c.id, c.storage_app_groups.map((g) => g.name)])).toEqual([
      [a.id, ['First', 'Second']],
      [b.id, []],
    ]);
  });
});
