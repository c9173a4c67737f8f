import { randomBytes } from 'node:crypto';
import type { ContractSettings, contractSettingsRequest } from '@filerunner/protocol';
import type { z } from 'zod';
import type { ContractRow } from '../../db/rows';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import {
  deleteStorageGroupsExcept,
  insertStorageGroups,
  renameStorageGroup,
  saveContractSettings,
  storageGroupIdsOf,
  storageGroupsOf,
} from './contracts.repository';

type StorageGroupsInput = NonNullable<
  z.infer<typeof contractSettingsRequest>['storage_app_groups']
>;

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
  const known = new Set(await storageGroupIdsOf(ctx.db, contract.id));
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
    await deleteStorageGroupsExcept(tx, contract.id, keep);
    for (const group of wanted) {
      if (group.id !== undefined) await renameStorageGroup(tx, group.id, group.name);
    }
    await insertStorageGroups(tx, contract.id, created);
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
  await saveContractSettings(ctx.db, contract.id, settings);
  return {
    settings,
    storage_app_groups: (await storageGroupsOf(ctx.db, [contract.id])).get(contract.id) ?? [],
  };
}
