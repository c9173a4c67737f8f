import { describe, expect, it } from 'vitest';
import { formatDateTime, instantOf, isTimeZone, wallClockOf } from './dates';

describe('dates in a time zone', () => {
  const at = new Date('2026-12-22T17:00:00Z');

  it("shows 'Mon D YYYY' with a 12-hour clock in the zone asked for", () => {
    expect(formatDateTime(at, 'UTC')).toBe('Dec 22 2026 5:00 PM');
    expect(formatDateTime(at, 'America/New_York')).toBe('Dec 22 2026 12:00 PM');
    expect(formatDateTime(at, 'Asia/Tokyo')).toBe('Dec 23 2026 2:00 AM');
    expect(formatDateTime('2025-01-05T00:04:00Z', 'Asia/Kathmandu')).toBe('Jan 5 2025 5:49 AM');
    expect(formatDateTime('not a date', 'UTC')).toBe('');
  });

  it('turns a wall clock of a zone into its instant and back, across a change of the clocks', () => {
    const wall = { year: 2026, month: 3, day: 8, hour: 1, minute: 30 };
    // New York moves from EST to EDT at 2:00 on Mar 8 2026.
    expect(instantOf(wall, 'America/New_York').toISOString()).toBe('2026-03-08T06:30:00.000Z');
    const after = { ...wall, hour: 3, minute: 0 };
    expect(instantOf(after, 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(wallClockOf(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toEqual(after);
    expect(instantOf({ ...wall, hour: 0 }, 'Asia/Tokyo').toISOString()).toBe(
      '2026-03-07T15:30:00.000Z',
    );
  });

  it('knows the zones Intl knows', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
