import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client';
import { rateLimitHits } from '../../db/schema';

/** At most `max` hits under `key` per window. */
export interface Limit {
  key: string;
  max: number;
}

/** One hit counted under a key, in the window it was counted in. */
export interface Hit {
  key: string;
  /** The window's start as the database wrote it, exact to the microsecond. */
  windowStart: string;
}

/**
 * Fixed-window counters kept in the database, so the limits hold across app nodes and restarts.
 * Keys name what is counted, e.g. `login:ip:127.0.0.1` or `login:account:a@b.c`. Every count is
 * one upsert, so parallel callers never read the same count: a limit of N lets exactly N hits
 * through per window, however many arrive at once.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one hit and returns the hits in the current window, this one included. */
  async hit(key: string): Promise<number> {
    return (await this.count(key)).hits;
  }

  /**
   * Counts one attempt against each limit in turn, before the work the limits guard. An attempt
   * over any limit is refused (null) and counts nowhere: its hits are given back, so refusals
   * never use up a limit. An allowed attempt returns its hits, to give back if it should not count.
   */
  async take(limits: readonly Limit[]): Promise<Hit[] | null> {
    const taken: Hit[] = [];
    for (const { key, max } of limits) {
      const { hits, windowStart } = await this.count(key);
      taken.push({ key, windowStart });
      if (hits > max) {
        await this.giveBack(taken);
        return null;
      }
    }
    return taken;
  }

  /** Takes back hits counted by `take`; a hit whose window has since ended is left alone. */
  async giveBack(hits: readonly Hit[]): Promise<void> {
    const t = rateLimitHits;
    for (const { key, windowStart } of hits) {
      await this.db.execute(sql`
        update ${t} set hits = hits - 1
        where key = ${key} and window_start = ${windowStart}::timestamptz and hits > 0`);
    }
  }

  /** The hits under `key` in the current window, without counting one. */
  async current(key: string): Promise<number> {
    const window = sql`make_interval(secs => ${this.windowSeconds})`;
    const t = rateLimitHits;
    const rows = await queryRows<{ hits: number }>(
      this.db,
      sql`select hits from ${t} where key = ${key} and ${t.windowStart} >= now() - ${window}`,
    );
    return Number(rows[0]?.hits ?? 0);
  }

  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from ${rateLimitHits} where key = ${key}`);
  }

  /** Counts one hit under `key`: the hits in the current window, this one included, and its window. */
  async count(key: string): Promise<{ hits: number; windowStart: string }> {
    const window = sql`make_interval(secs => ${this.windowSeconds})`;
    const t = rateLimitHits;
    const rows = await queryRows<{ hits: number; window_start: string }>(
      this.db,
      sql`
      insert into ${t} (key, window_start, hits) values (${key}, now(), 1)
      on conflict (key) do update set
        hits = case when ${t.windowStart} < now() - ${window} then 1 else ${t.hits} + 1 end,
        window_start = case when ${t.windowStart} < now() - ${window} then now() else ${t.windowStart} end
      returning hits, window_start::text as window_start`,
    );
    const row = rows[0]!;
    return { hits: Number(row.hits), windowStart: row.window_start };
  }
}
