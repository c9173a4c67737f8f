import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { ContractSettings, contractSettingsRequest } from '@filerunner/protocol';
import type { z } from 'zod';
import type { ContractRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { contracts, storageAppGroups } from '../../db/schema';
import { ApiError } from '../../http/errors';

type StorageGroupsInput = NonNullable<
  z.infer<typeof contractSettingsRequest>['storage_app_groups']
>;

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

/**
 * Makes the contract's storage locations the given list: ids rename, new names get a container
 * of their own (created in storage first, so no row ever names a missing container), and the
 * rest are removed.
 */
async function replaceStorageGroups(
  ctx: AppContext,
  contract: ContractRow,
  wanted: StorageGroupsInput,
) {
  const existing = await ctx.db
    .select()
    .from(storageAppGroups)
    .where(eq(storageAppGroups.contractId, contract.id));
  const known = new Set(existing.map((g) => g.id));
  if (wanted.some((g) => g.id !== undefined && !known.has(g.id))) {
    throw ApiError.fields({
      storage_app_groups: ['That storage location does not exist in this contract.'],
    });
  }
  const created: { name: string; container: string }[] = [];
  for (const group of wanted.filter((g) => g.id === undefined)) {
    const container = `fr-c${contract.id}-${randomBytes(4).toString('hex')}`;
    await ctx.storage.ensureContainer(container);
    created.push({ name: group.name, container });
  }
  await ctx.db.transaction(async (tx) => {
    const keep = wanted.flatMap((g) => (g.id === undefined ? [] : [g.id]));
    await tx
      .delete(storageAppGroups)
      .where(
        keep.length
          ? and(eq(storageAppGroups.contractId, contract.id), notInArray(storageAppGroups.id, keep))
          : eq(storageAppGroups.contractId, contract.id),
      );
    for (const group of wanted) {
      if (group.id !== undefined) {
        await tx
          .update(storageAppGroups)
          .set({ name: group.name })
          .where(eq(storageAppGroups.id, group.id));
      }
    }
    if (created.length) {
      await tx
        .insert(storageAppGroups)
        .values(created.map((c) => ({ ...c, contractId: contract.id })));
    }
  });
}

/**
 * Merges the given settings into the contract's. Packages read the settings when they are
 * created, so a change takes effect on the next package and never alters one already sent.
 */
export async function updateContractSettings(
  ctx: AppContext,
  contract: ContractRow,
  input: z.infer<typeof contractSettingsRequest>,
): Promise<{ settings: ContractSettings; storage_app_groups: { id: number; name: string }[] }> {
  const { storage_app_groups: groups, ...rest } = input;
  if (groups) await replaceStorageGroups(ctx, contract, groups);
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const settings: ContractSettings = { ...contract.settings, ...defined };
  await ctx.db.update(contracts).set({ settings }).where(eq(contracts.id, contract.id));
  return {
    settings,
    storage_app_groups: (await storageGroupsOf(ctx.db, [contract.id])).get(contract.id) ?? [],
  };
}
