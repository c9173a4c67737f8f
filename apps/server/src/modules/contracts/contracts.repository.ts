import { and, asc, eq, sql } from 'drizzle-orm';
import type { Contract } from '@filerunner/protocol';
import { preparedOnce, type Database } from '../../db/client';
import { contracts, memberships, storageAppGroups } from '../../db/schema';

/** The statement behind `contractsOfUser`, built once per database handle. */
const contractsOfUserStatement = preparedOnce((db) =>
  db
    .select({
      contract: contracts,
      membership: memberships,
      storageGroups: sql<Array<{ id: number; name: string }>>`coalesce((
        select json_agg(
          json_build_object('id', ${storageAppGroups.id}, 'name', ${storageAppGroups.name})
          order by ${storageAppGroups.name}, ${storageAppGroups.id}
        )
        from ${storageAppGroups}
        where ${storageAppGroups.contractId} = ${contracts.id}
      ), '[]'::json)`,
    })
    .from(memberships)
    .innerJoin(contracts, eq(contracts.id, memberships.contractId))
    .where(
      and(
        eq(memberships.userId, sql.placeholder('userId')),
        eq(memberships.enabled, true),
        eq(contracts.enabled, true),
      ),
    )
    .orderBy(asc(contracts.name), asc(contracts.id))
    .prepare('contracts_of_user'),
);

/**
 * The contracts a user is an enabled member of, with their permissions and settings, their
 * storage locations included: one statement, built once, as every signed-in page asks for this.
 */
export async function contractsOfUser(db: Database, userId: number): Promise<Contract[]> {
  const rows = await contractsOfUserStatement(db).execute({ userId });
  return rows.map(({ contract, membership, storageGroups }) => ({
    id: contract.id,
    slug: contract.slug,
    name: contract.name,
    service_id: contract.serviceId,
    permissions: { send: membership.send, admin: membership.admin },
    settings: contract.settings,
    storage_app_groups: storageGroups,
    branding_enabled: contract.brandingEnabled,
  }));
}
