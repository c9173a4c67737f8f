import { accessPeriodLatestEnd, packageLimits } from '@filerunner/protocol';

/** The pickers offer times every 30 minutes. */
export const SLOT_MINUTES = 30;
const SLOT_MS = SLOT_MINUTES * 60_000;
const DAY_MS = 86_400_000;

/** The start of the 30-minute slot `date` falls in (local time). */
export function slotStart(date: Date): Date {
  const d = new Date(date);
  d.setSeconds(0, 0);
  d.setMinutes(d.getMinutes() - (d.getMinutes() % SLOT_MINUTES));
  return d;
}

/** The first slot boundary at or after `date`. */
export function nextSlot(date: Date): Date {
  const start = slotStart(date);
  return start.getTime() === date.getTime() ? start : new Date(start.getTime() + SLOT_MS);
}

/**
 * A new package's access period: from the current slot (a start up to 30 minutes back still
 * counts as now) to 10 days later, on a slot boundary.
 */
export function defaultAccessPeriod(now: Date): { validFrom: Date; validTo: Date } {
  return {
    validFrom: slotStart(now),
    validTo: nextSlot(new Date(now.getTime() + packageLimits.defaultAccessDays * DAY_MS)),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the local date, as a date input takes it. */
export function dateValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `HH:MM` of the local time, the value of a time slot. */
export function timeValue(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The local date and time slot as one instant. */
export function combine(date: string, time: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, h, min);
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
export function timeSlots(date: string, earliest: Date, latest?: Date): TimeSlot[] {
  const slots: TimeSlot[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += SLOT_MINUTES) {
    const value = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
    const at = combine(date, value);
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
export function startDateRange(now: Date): { min: string; max: string } {
  return { min: dateValue(now), max: dateValue(accessPeriodLatestEnd(now)) };
}

/**
 * The dates an end may take: from the start's date up to the longest span after the start, and
 * never past the storage limit.
 */
export function endDateRange(validFrom: Date, now: Date): { min: string; max: string } {
  const longest = new Date(validFrom.getTime() + packageLimits.accessPeriodMaxDays * DAY_MS);
  const latest = accessPeriodLatestEnd(now);
  return { min: dateValue(validFrom), max: dateValue(longest < latest ? longest : latest) };
}
