import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Contract } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { ContractRow, MembershipRow } from '../../db/rows';
import { contracts, memberships, storageAppGroups } from '../../db/schema';
import type { CallerMembership } from '../memberships/memberships.repository';

/**
 * The contracts of these memberships that the user may use (the membership and the contract
 * both enabled), with their permissions, settings and storage locations.
 */
export function contractsFrom(list: CallerMembership[]): Contract[] {
  return list
    .filter((m) => m.enabled && m.contract.enabled)
    .map(({ contract, admin, send, storage_app_groups }) => ({
      id: contract.id,
      slug: contract.slug,
      name: contract.name,
      service_id: contract.service_id,
      permissions: { send, admin },
      settings: contract.settings,
      storage_app_groups,
      branding_enabled: contract.branding_enabled,
      storage_quota: contract.storage_quota,
      max_package_size: contract.max_package_size,
    }));
}

export async function isContractSlugTaken(db: Database, slug: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: contracts.id })
    .from(contracts)
    .where(eq(contracts.slug, slug));
  return taken !== undefined;
}

export async function contractSlugOf(db: Database, contractId: number): Promise<string | null> {
  const [row] = await db
    .select({ slug: contracts.slug })
    .from(contracts)
    .where(eq(contracts.id, contractId));
  return row?.slug ?? null;
}

export async function insertContract(
  db: Database,
  values: Pick<ContractRow, 'name' | 'slug'> &
    Partial<Pick<ContractRow, 'storageQuota' | 'maxPackageSize'>>,
): Promise<ContractRow> {
  const [contract] = await db.insert(contracts).values(values).returning();
  return contract!;
}

/** Puts an account in a contract with these columns; one already in it stays as it is. */
export async function insertMembershipOnce(
  db: Database,
  values: Pick<MembershipRow, 'contractId' | 'userId' | 'seesProfile' | 'activeSince'> &
    Partial<Pick<MembershipRow, 'admin' | 'send' | 'masterGroup'>>,
): Promise<void> {
  await db.insert(memberships).values(values).onConflictDoNothing();
}

/** What the operator may change on a contract. */
export type OperatorChange = Partial<
  Pick<ContractRow, 'enabled' | 'brandingEnabled' | 'storageQuota' | 'maxPackageSize'>
>;

/** Changes the contract with this slug; false when there is none. */
export async function updateContractBySlug(
  db: Database,
  slug: string,
  change: OperatorChange,
): Promise<boolean> {
  const rows = await db
    .update(contracts)
    .set(change)
    .where(eq(contracts.slug, slug))
    .returning({ id: contracts.id });
  return rows.length > 0;
}

/**
 * The contract's quotas, read under a lock on its row held to the end of the transaction: two
 * creates on one contract take turns, so the second counts the package of the first.
 * (NO KEY UPDATE, so rows that merely reference the contract are not held up.)
 */
export async function lockContractQuotas(
  tx: Database,
  contractId: number,
): Promise<Pick<ContractRow, 'storageQuota' | 'maxPackageSize'>> {
  const [row] = await tx
    .select({ storageQuota: contracts.storageQuota, maxPackageSize: contracts.maxPackageSize })
    .from(contracts)
    .where(eq(contracts.id, contractId))
    .for('no key update');
  return row!;
}

export async function saveContractSettings(
  db: Database,
  contractId: number,
  settings: ContractRow['settings'],
): Promise<void> {
  await db.update(contracts).set({ settings }).where(eq(contracts.id, contractId));
}

/** The storage locations of each of the given contracts, by contract id. */
export async function storageGroupsOf(db: Database, contractIds: number[]) {
  if (contractIds.length === 0) return new Map<number, { id: number; name: string }[]>();
  const rows = await db
    .select()
    .from(storageAppGroups)
    .where(inArray(storageAppGroups.contractId, contractIds))
    .orderBy(asc(storageAppGroups.name), asc(storageAppGroups.id));
  const byContract = new Map<number, { id: number; name: string }[]>();
  for (const row of rows) {
    const list = byContract.get(row.contractId) ?? [];
    list.push({ id: row.id, name: row.name });
    byContract.set(row.contractId, list);
  }
  return byContract;
}

/** The contract's storage location with this id, if it is the contract's. */
export async function storageGroupOfContract(db: Database, contractId: number, groupId: number) {
  const [group] = await db
    .select()
    .from(storageAppGroups)
    .where(and(eq(storageAppGroups.id, groupId), eq(storageAppGroups.contractId, contractId)));
  return group;
}

/** The ids of the contract's storage locations. */
export async function storageGroupIdsOf(db: Database, contractId: number): Promise<number[]> {
  const rows = await db
    .select({ id: storageAppGroups.id })
    .from(storageAppGroups)
    .where(eq(storageAppGroups.contractId, contractId));
  return rows.map((row) => row.id);
}

/** Removes the contract's storage locations but those with these ids. */
export async function deleteStorageGroupsExcept(
  db: Database,
  contractId: number,
  keep: number[],
): Promise<void> {
  await db
    .delete(storageAppGroups)
    .where(
      keep.length
        ? and(eq(storageAppGroups.contractId, contractId), notInArray(storageAppGroups.id, keep))
        : eq(storageAppGroups.contractId, contractId),
    );
}

export async function renameStorageGroup(db: Database, id: number, name: string): Promise<void> {
  await db.update(storageAppGroups).set({ name }).where(eq(storageAppGroups.id, id));
}

export async function insertStorageGroups(
  db: Database,
  contractId: number,
  groups: Array<{ name: string; container: string }>,
): Promise<void> {
  if (groups.length === 0) return;
  await db.insert(storageAppGroups).values(groups.map((g) => ({ ...g, contractId })));
}
