import {
  accessPeriodLatestEnd,
  instantOf,
  localTimeZone,
  packageLimits,
  wallClockOf,
} from '@filerunner/protocol';

// The pickers show dates and times on the wall clock of the person's zone (their profile's,
// else the browser's, see useTimeZone): each helper takes that zone, the browser's by default.

/** The pickers offer times every 30 minutes. */
export const SLOT_MINUTES = 30;
const SLOT_MS = SLOT_MINUTES * 60_000;
const DAY_MS = 86_400_000;

/** The start of the 30-minute slot `date` falls in (on the zone's clock). */
export function slotStart(date: Date, timeZone = localTimeZone()): Date {
  const wall = wallClockOf(date, timeZone);
  return instantOf({ ...wall, minute: wall.minute - (wall.minute % SLOT_MINUTES) }, timeZone);
}

/** The first slot boundary at or after `date`. */
export function nextSlot(date: Date, timeZone = localTimeZone()): Date {
  const start = slotStart(date, timeZone);
  return start.getTime() === date.getTime() ? start : new Date(start.getTime() + SLOT_MS);
}

/**
 * A new package's access period: from the current slot (a start up to 30 minutes back still
 * counts as now) to 10 days later, on a slot boundary.
 */
export function defaultAccessPeriod(
  now: Date,
  timeZone = localTimeZone(),
): { validFrom: Date; validTo: Date } {
  return {
    validFrom: slotStart(now, timeZone),
    validTo: nextSlot(new Date(now.getTime() + packageLimits.defaultAccessDays * DAY_MS), timeZone),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the date on the zone's clock, as a date input takes it. */
export function dateValue(date: Date, timeZone = localTimeZone()): string {
  const w = wallClockOf(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** `HH:MM` of the time on the zone's clock, the value of a time slot. */
export function timeValue(date: Date, timeZone = localTimeZone()): string {
  const w = wallClockOf(date, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** A date and a time slot on the zone's clock as one instant. */
export function combine(date: string, time: string, timeZone = localTimeZone()): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return instantOf({ year, month, day, hour, minute }, timeZone);
}

export interface TimeSlot {
  value: string;
  /** 12-hour time, e.g. '9:30 AM'. */
  label: string;
  disabled: boolean;
}

function slotLabel(hours: number, minutes: number): string {
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 || 12}:${pad(minutes)} ${suffix}`;
}

/**
 * The 48 slots of a day for a picker, those before `earliest` disabled (on today's date the
 * start may not be in the past and the end may not be before now), and those after `latest`
 * (the storage limit, 15 days from now).
 */
export function timeSlots(
  date: string,
  earliest: Date,
  latest?: Date,
  timeZone = localTimeZone(),
): TimeSlot[] {
  const slots: TimeSlot[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += SLOT_MINUTES) {
    const value = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
    const at = combine(date, value, timeZone);
    slots.push({
      value,
      label: slotLabel(Math.floor(minutes / 60), minutes % 60),
      disabled: at < earliest || (latest !== undefined && at > latest),
    });
  }
  return slots;
}

/**
 * The dates a start may take: today up to the storage limit (a package is stored 15 days after
 * sending, so a later start leaves it nothing to be available in).
 */
export function startDateRange(
  now: Date,
  timeZone = localTimeZone(),
): { min: string; max: string } {
  return {
    min: dateValue(now, timeZone),
    max: dateValue(accessPeriodLatestEnd(now), timeZone),
  };
}

/**
 * The dates an end may take: from the start's date up to the longest span after the start, and
 * never past the storage limit.
 */
export function endDateRange(
  validFrom: Date,
  now: Date,
  timeZone = localTimeZone(),
): { min: string; max: string } {
  const longest = new Date(validFrom.getTime() + packageLimits.accessPeriodMaxDays * DAY_MS);
  const latest = accessPeriodLatestEnd(now);
  return {
    min: dateValue(validFrom, timeZone),
    max: dateValue(longest < latest ? longest : latest, timeZone),
  };
}
