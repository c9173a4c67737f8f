import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { announceSessionsEnded } from '../../realtime/announce';
import { callerMembershipsOf, type CallerMembership } from '../memberships/memberships.repository';
import { userColumns } from './accounts.repository';

export type { CallerMembership, UserRow };

export const SESSION_COOKIE = 'filerunner_session';

export interface SessionLifetime {
  /** How long a session lasts from its login or its last extension. */
  ttlSeconds: number;
  /** How long after its login a session ends at the latest, however often it is extended. */
  maxAgeSeconds: number;
}

/** Sessions live in the database so that any app node can serve any request. */
export class SessionStore {
  /**
   * The live session of a token hash, with its user and the user's memberships: every signed-in
   * request runs it, so it is one statement, built once (and planned once per connection).
   */
  private readonly liveSession;

  constructor(
    private readonly db: Database,
    private readonly lifetime: SessionLifetime,
  ) {
    this.liveSession = db
      .select({
        user: userColumns,
        memberships: callerMembershipsOf(users.id),
        expiresAt: sessions.expiresAt,
        createdAt: sessions.createdAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder('hash')),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      )
      .prepare('live_session');
  }

  async create(userId: number): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    // Stamped from this clock rather than the database's, as every expiry is measured on it.
    const createdAt = new Date();
    const expiresAt = this.endOf(createdAt);
    await this.db
      .insert(sessions)
      .values({ tokenHash: tokenHash(token), userId, expiresAt, createdAt });
    // Expired sessions are dead weight; dropping them on login keeps the table small.
    await this.db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    return { token, expiresAt };
  }

  /**
   * The live session of a cookie token with its user, or null. A session older than the
   * maximum age (possible when that setting was lowered after its login) ends here.
   */
  async find(token: string): Promise<{
    user: UserRow;
    memberships: CallerMembership[];
    expiresAt: Date;
    hash: string;
  } | null> {
    const hash = tokenHash(token);
    // A placeholder's value reaches the driver as it is, so the time goes as text.
    const [row] = await this.liveSession.execute({ hash, now: new Date().toISOString() });
    if (!row) return null;
    if (this.tooOld(row.createdAt)) {
      await this.end(hash);
      return null;
    }
    return { user: row.user, memberships: row.memberships, expiresAt: row.expiresAt, hash };
  }

  /**
   * Moves the session's end a full session length from now, but never past its maximum age;
   * null (and the session ends) once that age is reached, when only a new login helps.
   */
  async extend(hash: string): Promise<Date | null> {
    const [row] = await this.db
      .select({ createdAt: sessions.createdAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, hash));
    if (!row) return null;
    if (this.tooOld(row.createdAt)) {
      await this.end(hash);
      return null;
    }
    const expiresAt = this.endOf(row.createdAt);
    await this.db.update(sessions).set({ expiresAt }).where(eq(sessions.tokenHash, hash));
    return expiresAt;
  }

  async end(hash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, hash));
    // Realtime sockets opened with this session close on every server process.
    await announceSessionsEnded(this.db, { sessionHash: hash });
  }

  /** Signs the user out everywhere; `db` is the caller's transaction when it has one. */
  async endAllOf(userId: number, db: Database = this.db): Promise<void> {
    await db.delete(sessions).where(eq(sessions.userId, userId));
    await announceSessionsEnded(db, { userId });
  }

  /** A session length from now, or the session's maximum age if that comes first. */
  private endOf(createdAt: Date): Date {
    const { ttlSeconds, maxAgeSeconds } = this.lifetime;
    return new Date(
      Math.min(Date.now() + ttlSeconds * 1000, createdAt.getTime() + maxAgeSeconds * 1000),
    );
  }

  private tooOld(createdAt: Date): boolean {
    return Date.now() >= createdAt.getTime() + this.lifetime.maxAgeSeconds * 1000;
  }
}
