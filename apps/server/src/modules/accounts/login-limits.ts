import type { Config } from '../../config';
import type { Limit } from './rate-limit';

/**
 * The limits one login attempt counts against, in the order they are counted (the rule and its
 * numbers: docs/decisions/004-login-limits.md). LOGIN_RATE_LIMIT guesses per address and
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
