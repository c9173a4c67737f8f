import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Contract, Membership } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import { contracts, groupMembers, groups, memberships } from '../../db/schema';
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

/** Every membership of a user (enabled or not), with the names of their groups in it. */
export async function membershipsOfUser(db: Database, userId: number): Promise<Membership[]> {
  const rows = await db
    .select({ contract: contracts, membership: memberships })
    .from(memberships)
    .innerJoin(contracts, eq(contracts.id, memberships.contractId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(contracts.name), asc(contracts.id));
  if (rows.length === 0) return [];
  const groupRows = await db
    .select({ contractId: groups.contractId, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(
      and(
        eq(groupMembers.userId, userId),
        inArray(
          groups.contractId,
          rows.map((r) => r.contract.id),
        ),
      ),
    )
    .orderBy(asc(groups.name));
  return rows.map(({ contract, membership }) => ({
    contract: { id: contract.id, name: contract.name, slug: contract.slug },
    admin: membership.admin,
    send: membership.send,
    enabled: membership.enabled,
    master_group: membership.masterGroup,
    groups: groupRows.filter((g) => g.contractId === contract.id).map((g) => ({ name: g.name })),
  }));
}
