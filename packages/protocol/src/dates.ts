// Dates as people read them, in a time zone of their choosing: the web app shows every date in
// the zone of the person's profile (the browser's when none is set), and mails in the zone of
// the person they go to. One wall clock per zone, read through Intl, so the same code runs in
// the browser and on the server.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date and time as a clock on the wall of a time zone shows it (month 1-12, hour 0-23). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const readers = new Map<string, Intl.DateTimeFormat>();

function readerOf(timeZone: string): Intl.DateTimeFormat {
  let reader = readers.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    readers.set(timeZone, reader);
  }
  return reader;
}

/** The zone this runtime is in (the browser's, in the web app). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether `timeZone` is a zone Intl knows (an IANA name such as 'America/New_York', or 'UTC'). */
export function isTimeZone(timeZone: string): boolean {
  try {
    readerOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at `date`. */
export function wallClockOf(date: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of readerOf(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `date`, in ms (whole minutes). */
function offsetAt(date: Date, timeZone: string): number {
  const w = wallClockOf(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return asUtc - Math.floor(date.getTime() / 60_000) * 60_000;
}

/**
 * The instant at which `timeZone`'s wall clock shows `wall`. A time skipped when the clocks go
 * forward lands after the gap; one shown twice when they go back is its first showing.
 */
export function instantOf(wall: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // The offset at the guess, then at the answer it gives: two steps settle any real zone.
  let instant = asUtc - offsetAt(new Date(asUtc), timeZone);
  instant = asUtc - offsetAt(new Date(instant), timeZone);
  return new Date(instant);
}

/**
 * A date as the product shows it, 'Mon D YYYY' with a 12-hour clock ('Jan 5 2025 3:04 PM'), in
 * `timeZone` (this runtime's zone when none is given). '' for an invalid date.
 */
export function formatDateTime(date: Date | string, timeZone?: string): string {
  const at = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(at.getTime())) return '';
  const w = wallClockOf(at, timeZone || localTimeZone());
  const clock = `${w.hour % 12 === 0 ? 12 : w.hour % 12}:${String(w.minute).padStart(2, '0')}`;
  return `${MONTHS[w.month - 1]} ${w.day} ${w.year} ${clock} ${w.hour < 12 ? 'AM' : 'PM'}`;
}
