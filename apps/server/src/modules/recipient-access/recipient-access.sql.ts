import {
  and,
  eq,
  gt,
  isNotNull,
  lte,
  ne,
  not,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// The recipient-access rule (`recipient-access.ts`) in SQL, for the statements that decide over
// many packages at once (the Inbox list and its unseen badge) and for updates that must hold
// the rule at the moment they write (a PIN check). Each fragment answers exactly what its
// namesake there answers for the same row; recipient-access.test.ts holds them to it.
//
// Each takes the columns it reads, so a statement can pass its own table or an alias of it
// (`alias(packages, 'p')`), and `now`: the database's clock by default, or a given moment.

/** The package columns the rule reads. */
export type PackageColumns = Record<
  'status' | 'validFrom' | 'expiresAt' | 'objectsDeletedAt',
  AnyPgColumn
>;

/** The recipient columns the rule reads. */
export type RecipientColumns = Record<
  'userId' | 'keyHash' | 'removed' | 'pinLockedUntil',
  AnyPgColumn
>;

/** A moment to decide at: a value, or an SQL expression such as a placeholder. */
export type Moment = Date | SQL | Placeholder;

const dbNow = sql`now()`;

/**
 * The recipient row a caller opens: a signed-in user's (their id, or a placeholder for it), or
 * the one a link's key was made for (the key's SHA-256).
 */
export type RecipientOf = { userId: number | Placeholder } | { keyHash: string };

/** The recipient rows of `who`. */
export function recipientRowOf(r: RecipientColumns, who: RecipientOf): SQL {
  return 'userId' in who ? eq(r.userId, who.userId) : eq(r.keyHash, who.keyHash);
}

/** SQL of `isExpired`. */
export function isExpiredSql(p: PackageColumns, now: Moment = dbNow): SQL {
  return or(isNotNull(p.objectsDeletedAt), lte(p.expiresAt, now))!;
}

/** SQL of `mayList` for a package and the caller's recipient row (found by `recipientRowOf`). */
export function mayListSql(p: PackageColumns, now: Moment = dbNow): SQL {
  return and(ne(p.status, 'uploading'), lte(p.validFrom, now))!;
}

/** SQL of `mayUse`: listed, not removed, not expired (what the unseen badge counts). */
export function mayUseSql(p: PackageColumns, r: RecipientColumns, now: Moment = dbNow): SQL {
  return and(mayListSql(p, now), not(r.removed), not(isExpiredSql(p, now)))!;
}

/** SQL of `pinLockedOut`. */
export function pinLockedOutSql(r: RecipientColumns, now: Moment = dbNow): SQL {
  return and(isNotNull(r.pinLockedUntil), gt(r.pinLockedUntil, now))!;
}
