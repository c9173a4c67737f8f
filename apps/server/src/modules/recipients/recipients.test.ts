import { describe, expect, it } from 'vitest';
import { createUser, login, useTestServer, type TestServer } from '../../../test/harness';
import { contracts } from '../../db/schema';
import { addMember } from '../contracts/contracts.service';
import { insertGroup } from '../contracts/groups.repository';
import { reachableUserIds } from './recipients.service';

let server: TestServer;
let slug: string;
let contractId: number;
const people: Record<string, { id: number; email: string }> = {};

/**
 * Group A: ann, abe and bea. Group B: bob and bea.
 * mia is in the master group; olga is in no group at all.
 */
useTestServer(async (t) => {
  ({ server } = t);
  slug = `groups-${process.pid}`;
  const [contract] = await server.ctx.db
    .insert(contracts)
    .values({ name: 'Groups', slug })
    .returning();
  contractId = contract!.id;
  for (const name of ['ann', 'abe', 'bob', 'bea', 'mia', 'olga']) {
    const user = await createUser(server);
    await addMember(server.ctx, contractId, user.id, { send: true, masterGroup: name === 'mia' });
    people[name] = user;
  }
  await insertGroup(server.ctx.db, contractId, {
    name: 'A',
    members: [people.ann!.id, people.abe!.id, people.bea!.id],
  });
  await insertGroup(server.ctx.db, contractId, {
    name: 'B',
    members: [people.bob!.id, people.bea!.id],
  });
});

async function visibleTo(name: string): Promise<string[]> {
  const headers = await login(server, people[name]!.email);
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/contracts/${slug}/recipients/`,
    headers,
  });
  expect(response.statusCode).toBe(200);
  const groups = response.json() as { name: string; members: { id: number }[] }[];
  const ids = new Set(groups.flatMap((g) => g.members.map((m) => m.id)));
  return Object.entries(people)
    .filter(([, p]) => ids.has(p.id))
    .map(([n]) => n)
    .sort();
}

describe('group rules', () => {
  it('a member of group A sees group A and the master group, not group B', async () => {
    expect(await visibleTo('ann')).toEqual(['abe', 'bea', 'mia']);
    expect(await visibleTo('bob')).toEqual(['bea', 'mia']);
  });

  it('someone in A and B sees both', async () => {
    expect(await visibleTo('bea')).toEqual(['abe', 'ann', 'bob', 'mia']);
  });

  it('a master-group member sees everybody, the ungrouped included', async () => {
    expect(await visibleTo('mia')).toEqual(['abe', 'ann', 'bea', 'bob', 'olga']);
  });

  it('someone in no group reaches only the master group', async () => {
    expect(await visibleTo('olga')).toEqual(['mia']);
  });

  it('the send check agrees with the lists: A cannot reach B-only users', async () => {
    const reachable = await reachableUserIds(server.ctx.db, contractId, people.ann!.id);
    expect(reachable.has(people.bob!.id)).toBe(false);
    expect(reachable.has(people.mia!.id)).toBe(true);
    const fromMaster = await reachableUserIds(server.ctx.db, contractId, people.mia!.id);
    expect(fromMaster.has(people.bob!.id)).toBe(true);
  });

  it('a send follows the same rules: A cannot send to B-only users, the master group can', async () => {
    const send = async (from: string, to: string) => {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/packages/create/',
        headers: await login(server, people[from]!.email),
        payload: {
          contract: slug,
          name: `${from} to ${to}`,
          recipients: [{ id: people[to]!.id }],
          valid_from: new Date().toISOString(),
          valid_to: new Date(Date.now() + 86_400_000).toISOString(),
          expected_files: 1,
          expected_size: 3,
          intended_files: [{ filename: 'a.txt', size: 3 }],
        },
      });
      return response.statusCode;
    };
    expect(await send('ann', 'bob')).toBe(400);
    expect(await send('ann', 'bea')).toBe(201);
    expect(await send('bea', 'bob')).toBe(201);
    expect(await send('olga', 'ann')).toBe(400);
    expect(await send('mia', 'olga')).toBe(201);
  });

  it('lists groups with the master group first and marks activated people verified', async () => {
    const headers = await login(server, people.bea!.email);
    const groups = (
      await server.app.inject({ method: 'GET', url: `/api/contracts/${slug}/recipients/`, headers })
    ).json();
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['Master group', 'A', 'B']);
    expect(groups[0]).toMatchObject({ master_group: true, verified_group: true });
    expect(groups[1].members[0]).toMatchObject({ verified: true });
  });
});
