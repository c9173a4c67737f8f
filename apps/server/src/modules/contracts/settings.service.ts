import { eq } from 'drizzle-orm';
import type { ContractSettings, contractSettingsRequest } from '@filerunner/protocol';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { contracts } from '../../db/schema';
import type { ContractRow } from './contracts.policy';

/**
 * Merges the given settings into the contract's. Packages read the settings when they are
 * created, so a change takes effect on the next package and never alters one already sent.
 */
export async function updateContractSettings(
  ctx: AppContext,
  contract: ContractRow,
  input: z.infer<typeof contractSettingsRequest>,
): Promise<ContractSettings> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const settings: ContractSettings = { ...contract.settings, ...defined };
  await ctx.db.update(contracts).set({ settings }).where(eq(contracts.id, contract.id));
  return settings;
}
