import { describe, expect, it } from 'vitest';
import { formatDateTime, formatExpiry } from './package-format';

describe('package formatting', () => {
  it("shows dates as 'Mon D YYYY' with a 12-hour clock", () => {
    expect(formatDateTime(new Date(2025, 0, 5, 15, 4).toISOString())).toBe('Jan 5 2025 3:04 PM');
    expect(formatDateTime(new Date(2024, 11, 31, 0, 30).toISOString())).toBe(
      'Dec 31 2024 12:30 AM',
    );
    expect(formatDateTime(new Date(2024, 5, 1, 12, 0).toISOString())).toBe('Jun 1 2024 12:00 PM');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('shows expiry in hours under a day and in days beyond', () => {
    const now = Date.UTC(2025, 0, 10, 12);
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(formatExpiry(at(5 * 3_600_000), now)).toBe('Expires in 5 hours');
    expect(formatExpiry(at(10 * 60_000), now)).toBe('Expires in 1 hour');
    expect(formatExpiry(at(3 * 86_400_000 + 5), now)).toBe('Expires in 3 days');
    expect(formatExpiry(at(-2 * 3_600_000), now)).toBe('Expired 2 hours ago');
    expect(formatExpiry(at(-86_400_000), now)).toBe('Expired 1 day ago');
    expect(formatExpiry(at(-4 * 86_400_000), now)).toBe('Expired 4 days ago');
  });
});
