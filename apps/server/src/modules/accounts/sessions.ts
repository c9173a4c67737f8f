import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';

export type UserRow = typeof users.$inferSelect;

export const SESSION_COOKIE = 'filerunner_session';

/** Sessions live in the database so that any app node can serve any request. */
export class SessionStore {
  constructor(
    private readonly db: Database,
    private readonly ttlSeconds: number,
  ) {}

  async create(userId: number): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const expiresAt = this.freshExpiry();
    await this.db.insert(sessions).values({ tokenHash: tokenHash(token), userId, expiresAt });
    // Expired sessions are dead weight; dropping them on login keeps the table small.
    await this.db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    return { token, expiresAt };
  }

  /** The live session of a cookie token with its user, or null. */
  async find(token: string): Promise<{ user: UserRow; expiresAt: Date; hash: string } | null> {
    const hash = tokenHash(token);
    const [row] = await this.db
      .select({ user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, new Date())));
    return row ? { ...row, hash } : null;
  }

  async extend(hash: string): Promise<Date> {
    const expiresAt = this.freshExpiry();
    await this.db.update(sessions).set({ expiresAt }).where(eq(sessions.tokenHash, hash));
    return expiresAt;
  }

  async end(hash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, hash));
  }

  async endAllOf(userId: number): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
  }

  private freshExpiry(): Date {
    return new Date(Date.now() + this.ttlSeconds * 1000);
  }
}
