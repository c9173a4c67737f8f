import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client';
import { rateLimitHits } from '../../db/schema';

/**
 * Fixed-window counters kept in the database, so the limits hold across app nodes and restarts.
 * Keys name what is counted, e.g. `login:ip:127.0.0.1` or `login:account:a@b.c`.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one hit and returns the hits in the current window, this one included. */
  async hit(key: string): Promise<number> {
    const window = sql`make_interval(secs => ${this.windowSeconds})`;
    const t = rateLimitHits;
    const rows = await queryRows<{ hits: number }>(
      this.db,
      sql`
      insert into ${t} (key, window_start, hits) values (${key}, now(), 1)
      on conflict (key) do update set
        hits = case when ${t.windowStart} < now() - ${window} then 1 else ${t.hits} + 1 end,
        window_start = case when ${t.windowStart} < now() - ${window} then now() else ${t.windowStart} end
      returning hits`,
    );
    return Number(rows[0]?.hits ?? 0);
  }

  /** The hits in the current window, without counting one. */
  async count(key: string): Promise<number> {
    const t = rateLimitHits;
    const rows = await queryRows<{ hits: number }>(
      this.db,
      sql`
      select hits from ${t}
      where key = ${key} and window_start >= now() - make_interval(secs => ${this.windowSeconds})`,
    );
    return Number(rows[0]?.hits ?? 0);
  }

  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from ${rateLimitHits} where key = ${key}`);
  }
}
