const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A date as the spec shows it, 'Mon D YYYY' with 12-hour time: 'Jan 5 2025 3:04 PM' (local). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const clock = `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()} ${date.getFullYear()} ${clock}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** When a package expires, relative to now: hours under a day, days beyond. */
export function formatExpiry(expiresIso: string, now = Date.now()): string {
  const left = new Date(expiresIso).getTime() - now;
  const span = Math.abs(left);
  const amount =
    span < DAY_MS
      ? plural(Math.max(1, Math.floor(span / HOUR_MS)), 'hour')
      : plural(Math.floor(span / DAY_MS), 'day');
  return left > 0 ? `Expires in ${amount}` : `Expired ${amount} ago`;
}
