import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { BrandingRow } from '../../db/rows';
import { brandings } from '../../db/schema';

/** The saved brandings of these contracts (none for a contract that never saved one). */
export async function brandingsOfContracts(
  db: Database,
  contractIds: number[],
): Promise<BrandingRow[]> {
  return db.select().from(brandings).where(inArray(brandings.contractId, contractIds));
}

/** The contract's saved branding, if it saved one. */
export async function brandingOfContract(
  db: Database,
  contractId: number,
): Promise<BrandingRow | undefined> {
  const [row] = await db.select().from(brandings).where(eq(brandings.contractId, contractId));
  return row;
}

/** Saves the contract's branding, replacing the one it had. */
export async function saveBranding(db: Database, branding: BrandingRow): Promise<BrandingRow> {
  const [row] = await db
    .insert(brandings)
    .values(branding)
    .onConflictDoUpdate({ target: brandings.contractId, set: branding })
    .returning();
  return row!;
}
