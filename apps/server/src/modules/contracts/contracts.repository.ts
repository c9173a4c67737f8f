import { and, asc, eq } from 'drizzle-orm';
import type { Contract } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import { contracts, memberships } from '../../db/schema';
import { storageGroupsOf } from './settings.service';

/** The contracts a user is an enabled member of, with their permissions and settings. */
export async function contractsOfUser(db: Database, userId: number): Promise<Contract[]> {
  const rows = await db
    .select({ contract: contracts, membership: memberships })
    .from(memberships)
    .innerJoin(contracts, eq(contracts.id, memberships.contractId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.enabled, true),
        eq(contracts.enabled, true),
      ),
    )
    .orderBy(asc(contracts.name), asc(contracts.id));
  const storageGroups = await storageGroupsOf(
    db,
    rows.map((r) => r.contract.id),
  );
  return rows.map(({ contract, membership }) => ({
    id: contract.id,
    slug: contract.slug,
    name: contract.name,
    service_id: contract.serviceId,
    permissions: { send: membership.send, admin: membership.admin },
    settings: contract.settings,
    storage_app_groups: storageGroups.get(contract.id) ?? [],
    branding_enabled: contract.brandingEnabled,
  }));
}
