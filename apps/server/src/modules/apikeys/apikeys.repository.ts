import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiKey } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { ApiKeyRow, UserRow } from '../../db/rows';
import { apiKeys, users } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { userColumns } from '../accounts/accounts.repository';
import { callerMembershipsOf, type CallerMembership } from '../memberships/memberships.repository';

/** How often a key's last use is written at most. */
const LAST_USED_EVERY_MS = 60_000;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    uuid: row.uuid,
    name: row.name,
    created_timestamp: row.createdAt.toISOString(),
    revoked: row.revokedAt !== null,
  };
}

/** API keys are stored as SHA-256 only; the key itself exists once, in the create answer. */
export class ApiKeyStore {
  /**
   * The live key of a hash with its user and the user's memberships: one statement, built once,
   * as every call by a script runs it.
   */
  private readonly liveKey;

  constructor(private readonly db: Database) {
    this.liveKey = db
      .select({
        user: userColumns,
        memberships: callerMembershipsOf(users.id),
        id: apiKeys.id,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
      .prepare('live_api_key');
  }

  async list(userId: number): Promise<ApiKey[]> {
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map(toApiKey);
  }

  /**
   * Makes a key unless the user already holds `liveMax` valid ones (then null). The user's row
   * is locked while counting, so creates that arrive together cannot pass the cap between them.
   */
  async create(
    userId: number,
    name: string,
    liveMax: number,
  ): Promise<(ApiKey & { key: string }) | null> {
    // The prefix makes a leaked key recognisable to secret scanners and to people.
    const key = `fr_${newToken()}`;
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [live] = await tx
        .select({ count: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
      if ((live?.count ?? 0) >= liveMax) return null;
      const [row] = await tx
        .insert(apiKeys)
        .values({ userId, name, keyHash: tokenHash(key) })
        .returning();
      return { ...toApiKey(row!), key };
    });
  }

  /** Revokes one of the user's keys; null when the user has no key with that uuid. */
  async revoke(userId: number, uuid: string): Promise<ApiKey | null> {
    const [row] = await this.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.uuid, uuid), eq(apiKeys.userId, userId)))
      .returning();
    return row ? toApiKey(row) : null;
  }

  /**
   * Revokes every live key of the user, as a password change does; `db` is the caller's
   * transaction. Answers how many were live, so the owner can be told.
   */
  async revokeAllOf(userId: number, db: Database = this.db): Promise<number> {
    const revoked = await db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return revoked.length;
  }

  /** The user a live key belongs to, with their memberships; a revoked key answers null at once. */
  async userOfKey(key: string): Promise<{ user: UserRow; memberships: CallerMembership[] } | null> {
    const [row] = await this.liveKey.execute({ hash: tokenHash(key) });
    if (!row) return null;
    // Recorded at most once a minute, so a busy script does not turn every request into a
    // write, nor into a second statement: the row just read says whether one is due.
    const aMinuteAgo = new Date(Date.now() - LAST_USED_EVERY_MS);
    if (!row.lastUsedAt || row.lastUsedAt < aMinuteAgo) {
      await this.db
        .update(apiKeys)
        .set({ lastUsedAt: new Date() })
        .where(
          and(
            eq(apiKeys.id, row.id),
            or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, aMinuteAgo)),
          ),
        );
    }
    return { user: row.user, memberships: row.memberships };
  }
}
