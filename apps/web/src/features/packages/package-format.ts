const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * When a package expires, relative to now: minutes under an hour, hours under a day, days
 * beyond. Each unit is counted down, never rounded up: 24 s after the end is "less than a
 * minute" ago, not an hour, and 19 minutes left is 19 minutes.
 */
export function formatExpiry(expiresIso: string, now = Date.now()): string {
  const left = new Date(expiresIso).getTime() - now;
  const span = Math.abs(left);
  const amount =
    span < MINUTE_MS
      ? 'less than a minute'
      : span < HOUR_MS
        ? plural(Math.floor(span / MINUTE_MS), 'minute')
        : span < DAY_MS
          ? plural(Math.floor(span / HOUR_MS), 'hour')
          : plural(Math.floor(span / DAY_MS), 'day');
  return left > 0 ? `Expires in ${amount}` : `Expired ${amount} ago`;
}
