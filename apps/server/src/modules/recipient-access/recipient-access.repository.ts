import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ContractRow, PackageRow, RecipientRow, UserRow } from '../../db/rows';
import { contracts, packageRecipients, packages, users } from '../../db/schema';
import { userColumns } from '../accounts/accounts.repository';
import { recipientRowOf, type RecipientOf } from './recipient-access.sql';

export type { RecipientOf };

/** A package as one of its recipients has it, with its contract and sender. */
export interface RecipientAccess {
  pkg: PackageRow;
  contract: ContractRow;
  sender: UserRow | null;
  recipient: RecipientRow;
}

/**
 * A package by slug with the recipient row `who` opens, or null when either is missing: a key
 * opens its own recipient of its own package and nothing else, and a user listed twice (say,
 * once by id and once by address) gets the row that still has access. What that row may do is
 * for the predicates of `recipient-access.ts` to say; this only finds it.
 */
export async function findRecipientAccess(
  db: Database,
  slug: string,
  who: RecipientOf,
): Promise<RecipientAccess | null> {
  const [row] = await db
    .select({
      pkg: packages,
      contract: contracts,
      sender: userColumns,
      recipient: packageRecipients,
    })
    .from(packageRecipients)
    .innerJoin(packages, eq(packages.id, packageRecipients.packageId))
    .innerJoin(contracts, eq(contracts.id, packages.contractId))
    .leftJoin(users, eq(users.id, packages.senderId))
    .where(and(eq(packages.slug, slug), recipientRowOf(packageRecipients, who)))
    .orderBy(asc(packageRecipients.removed), asc(packageRecipients.id))
    .limit(1);
  return row ?? null;
}
