import { and, eq, getTableColumns, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { UserRow, UserWithAvatarRow } from '../../db/rows';
import { userTokens, users } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';

/**
 * A user's columns but the avatar's bytes (up to 1 MB each). Every signed-in request reads its
 * caller, and package lists and mails read senders and recipients; only the avatar's own route
 * needs the image, and `avatarType` tells whether there is one.
 */
export const { avatar: _avatarBytes, ...userColumns } = getTableColumns(users);

export type TokenPurpose = 'activation' | 'reset';

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row;
}

/** The time zones chosen by the accounts of these addresses (lower-cased), where one is chosen. */
export async function timeZonesByEmail(
  db: Database,
  emails: readonly string[],
): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: sql<string>`lower(${users.email})`, timeZone: users.timezone })
    .from(users)
    .where(
      and(
        inArray(
          sql`lower(${users.email})`,
          emails.map((e) => e.trim().toLowerCase()),
        ),
        ne(users.timezone, ''),
      ),
    );
  return new Map(rows.map((r) => [r.email, r.timeZone]));
}

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
  return row;
}

/**
 * The account of an address: the one that exists, else a new one, not activated (for an address
 * someone invited, sent to or added). Requests that name the same new address at once each get
 * the one account: the unique index on the address decides which insert makes it, and the others
 * read it once that transaction has committed (never a unique-violation 500).
 */
export async function findOrInsertAccount(
  db: Database,
  values: Pick<typeof users.$inferInsert, 'email' | 'mobile' | 'firstName' | 'lastName'>,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, values.email);
  if (existing) return { user: existing, created: false };
  const [created] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing()
    .returning(userColumns);
  if (created) return { user: created, created: true };
  return { user: (await findUserByEmail(db, values.email))!, created: false };
}

/** When the account was activated; null while it is not (or there is no such account). */
export async function accountActivatedAt(db: Database, userId: number): Promise<Date | null> {
  const [account] = await db
    .select({ activatedAt: users.activatedAt })
    .from(users)
    .where(eq(users.id, userId));
  return account?.activatedAt ?? null;
}

/** A user with the avatar's bytes, for the avatar's route. */
export async function findUserByUid(
  db: Database,
  uid: string,
): Promise<UserWithAvatarRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(uid)) return undefined;
  const [row] = await db.select().from(users).where(eq(users.uid, uid));
  return row;
}

export async function updateUser(
  db: Database,
  id: number,
  changes: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning(userColumns);
  return row!;
}

/** Issues a single-use token, replacing any earlier unused one of the same purpose. */
export async function issueToken(
  db: Database,
  userId: number,
  purpose: TokenPurpose,
  ttlHours: number,
): Promise<string> {
  const token = newToken();
  await db
    .delete(userTokens)
    .where(
      and(
        eq(userTokens.userId, userId),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
      ),
    );
  await db.insert(userTokens).values({
    userId,
    purpose,
    tokenHash: tokenHash(token),
    expiresAt: new Date(Date.now() + ttlHours * 3600_000),
  });
  return token;
}

/** The user a live, unused token of this purpose belongs to (matched by uid too), or undefined. */
export async function userOfToken(
  db: Database,
  purpose: TokenPurpose,
  uid: string,
  token: string,
): Promise<UserRow | undefined> {
  const owner = await findUserByUid(db, uid);
  if (!owner) return undefined;
  const [row] = await db
    .select({ id: userTokens.id })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.tokenHash, tokenHash(token)),
        eq(userTokens.userId, owner.id),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    );
  return row ? owner : undefined;
}

/** Marks a token used; false when another request used it first (single use under races). */
export async function consumeToken(
  db: Database,
  purpose: TokenPurpose,
  token: string,
): Promise<boolean> {
  const used = await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, tokenHash(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning({ id: userTokens.id });
  return used.length === 1;
}
