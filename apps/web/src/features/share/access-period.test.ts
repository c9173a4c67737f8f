import { describe, expect, it } from 'vitest';
import {
  combine,
  dateValue,
  defaultAccessPeriod,
  endDateRange,
  nextSlot,
  slotStart,
  startDateRange,
  timeSlots,
  timeValue,
} from './access-period';

// Local times: the pickers work in the person's time zone.
const at = (y: number, mo: number, d: number, h: number, mi: number) =>
  new Date(y, mo - 1, d, h, mi);

describe('the access period pickers', () => {
  it('start at the current 30-minute slot and end 10 days later on a slot', () => {
    const now = at(2026, 3, 1, 9, 47);
    const { validFrom, validTo } = defaultAccessPeriod(now);
    expect(validFrom).toEqual(at(2026, 3, 1, 9, 30));
    expect(validTo).toEqual(at(2026, 3, 11, 10, 0));
    expect(nextSlot(at(2026, 3, 1, 10, 0))).toEqual(at(2026, 3, 1, 10, 0));
    expect(slotStart(at(2026, 3, 1, 10, 29))).toEqual(at(2026, 3, 1, 10, 0));
  });

  it('offer 48 times a day with 12-hour labels, disabling those before the earliest', () => {
    const slots = timeSlots('2026-03-01', at(2026, 3, 1, 9, 30));
    expect(slots).toHaveLength(48);
    expect(slots.slice(18, 21).map((s) => [s.value, s.label, s.disabled])).toEqual([
      ['09:00', '9:00 AM', true],
      ['09:30', '9:30 AM', false],
      ['10:00', '10:00 AM', false],
    ]);
    expect(slots[0]!.label).toBe('12:00 AM');
    expect(slots[24]!.label).toBe('12:00 PM');
    expect(slots[47]!.label).toBe('11:30 PM');
    expect(timeSlots('2026-03-02', at(2026, 3, 1, 9, 30)).every((s) => !s.disabled)).toBe(true);
  });

  it('read and write a date and a slot in local time', () => {
    const when = at(2026, 12, 31, 23, 30);
    expect(dateValue(when)).toBe('2026-12-31');
    expect(timeValue(when)).toBe('23:30');
    expect(combine('2026-12-31', '23:30')).toEqual(when);
  });

  it('let the end range from the start’s date to 15 days after it', () => {
    const now = at(2026, 3, 1, 9, 20);
    expect(endDateRange(at(2026, 3, 1, 9, 30), now)).toEqual({
      min: '2026-03-01',
      max: '2026-03-16',
    });
  });

  it('keep start and end within the 15 days a package is stored', () => {
    const now = at(2026, 3, 1, 9, 20);
    expect(startDateRange(now)).toEqual({ min: '2026-03-01', max: '2026-03-16' });
    // A start 10 days ahead may not end 15 days after it: the storage limit comes first.
    expect(endDateRange(at(2026, 3, 11, 9, 30), now)).toEqual({
      min: '2026-03-11',
      max: '2026-03-16',
    });
    // On the limit's date, the slots after it (9:20 on Mar 16) are disabled.
    const slots = timeSlots('2026-03-16', at(2026, 3, 16, 0, 0), at(2026, 3, 16, 9, 20));
    expect(slots.slice(18, 20).map((s) => [s.value, s.disabled])).toEqual([
      ['09:00', false],
      ['09:30', true],
    ]);
  });

  it("read and write dates and slots on the clock of the person's zone, not the browser's", () => {
    const zone = 'America/New_York';
    const when = new Date('2026-12-22T17:00:00Z');
    expect(dateValue(when, zone)).toBe('2026-12-22');
    expect(timeValue(when, zone)).toBe('12:00');
    expect(combine('2026-12-22', '12:00', zone)).toEqual(when);
    expect(dateValue(new Date('2026-12-23T02:00:00Z'), zone)).toBe('2026-12-22');
    // Kathmandu is 5:45 ahead: slots fall on its half hours, not on UTC's.
    expect(slotStart(new Date('2026-03-01T04:20:00Z'), 'Asia/Kathmandu')).toEqual(
      new Date('2026-03-01T04:15:00Z'),
    );
    const slots = timeSlots('2026-12-22', combine('2026-12-22', '09:30', zone), undefined, zone);
    expect(slots.find((s) => s.value === '09:00')!.disabled).toBe(true);
    expect(slots.find((s) => s.value === '09:30')!.disabled).toBe(false);
  });
});
