import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../config';
import type { Hit, Limit, RateLimiter } from './rate-limit';

/**
 * The limits one login attempt counts against, in the order they are counted (the rule and its
 * numbers: docs/decisions/004-login-limits.md). LOGIN_RATE_LIMIT failures per address and
 * account; five times that per address across accounts, and per account across addresses, so
 * one address that keeps guessing shuts only itself out and the owner still logs in from theirs.
 *
 * The address-and-account pair comes first: an attempt it refuses never reaches the counters
 * shared with other callers. An address over its own limit then never adds to an account's.
 */
export function loginLimits(config: Config, email: string, ip: string): Limit[] {
  const account = email.trim().toLowerCase();
  return [
    // An address holds no space, so the key cannot be read as another address and account.
    { key: `login:ip+account:${ip} ${account}`, max: config.loginRateLimit },
    { key: `login:ip:${ip}`, max: config.loginRateLimit * 5 },
    { key: `login:account:${account}`, max: config.loginRateLimit * 5 },
  ];
}

/** How an admitted attempt ended: a wrong password (or no such account), a login, or an error. */
export type LoginOutcome = 'failed' | 'succeeded' | 'abandoned';

/**
 * An attempt let through to the password check; `end` must be called once it is known, in a
 * `finally` ('abandoned' when the check threw), or its places stay held for the window.
 */
export interface LoginAdmission {
  end(outcome: LoginOutcome): Promise<void>;
}

/** Attempts being checked, per limit: they hold room until they end, then count only if failed. */
const checkingKey = (key: string) => `checking:${key}`;

/** An attempt that finds the room held by attempts being checked waits this long at most. */
const WAIT_FOR_ROOM_MS = 10_000;
const FIRST_LOOK_MS = 20;
const LAST_LOOK_MS = 500;

/**
 * Lets a login attempt through to the password check, or refuses it (null): only failures count
 * toward the limits, but an attempt holds a place while its password is checked, so guesses sent
 * at once never compare more passwords than the failures left: at every admission, failures plus
 * checks under way are at most the limit. An attempt refused by failures answers at once; one
 * that finds the room held by checks under way (many correct logins at once) waits for them to
 * end, then looks again, up to WAIT_FOR_ROOM_MS.
 */
export async function admitLogin(
  limiter: RateLimiter,
  limits: readonly Limit[],
): Promise<LoginAdmission | null> {
  const deadline = Date.now() + WAIT_FOR_ROOM_MS;
  for (let wait = FIRST_LOOK_MS; ; wait = Math.min(wait * 2, LAST_LOOK_MS)) {
    const look = await holdPlaces(limiter, limits);
    if (look === 'locked') return null;
    if (look !== 'busy') {
      return {
        async end(outcome) {
          // Failures are counted before the places are given back, so the sum never dips; a
          // count that fails still gives them back, or they would shut out correct logins.
          try {
            if (outcome === 'failed') {
              for (const { key } of limits) await limiter.hit(key);
            }
            if (outcome === 'succeeded') await limiter.clear(limits[0]!.key);
          } finally {
            await limiter.giveBack(look);
          }
        },
      };
    }
    if (Date.now() + wait > deadline) return null;
    await sleep(wait);
  }
}

/**
 * Holds a place under every limit, in order, or none: 'locked' when a limit's failures leave no
 * room, 'busy' when checks under way fill what they leave. The place is counted before the
 * failures are read (and an ending attempt counts its failure before giving its place back), so
 * two attempts at once never both see the last place free.
 */
async function holdPlaces(
  limiter: RateLimiter,
  limits: readonly Limit[],
): Promise<Hit[] | 'locked' | 'busy'> {
  const held: Hit[] = [];
  for (const { key, max } of limits) {
    const place = await limiter.count(checkingKey(key));
    held.push({ key: checkingKey(key), windowStart: place.windowStart });
    const failures = await limiter.current(key);
    const refusal = failures >= max ? 'locked' : failures + place.hits > max ? 'busy' : null;
    if (refusal) {
      await limiter.giveBack(held);
      return refusal;
    }
  }
  return held;
}
