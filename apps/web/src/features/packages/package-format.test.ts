import { describe, expect, it } from 'vitest';
import { formatExpiry } from './package-format';

describe('package formatting', () => {
  it('shows expiry in hours under a day and in days beyond', () => {
    const now = Date.UTC(2025, 0, 10, 12);
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(formatExpiry(at(5 * 3_600_000), now)).toBe('Expires in 5 hours');
    expect(formatExpiry(at(90 * 60_000), now)).toBe('Expires in 1 hour');
    expect(formatExpiry(at(3 * 86_400_000 + 5), now)).toBe('Expires in 3 days');
    expect(formatExpiry(at(-2 * 3_600_000), now)).toBe('Expired 2 hours ago');
    expect(formatExpiry(at(-86_400_000), now)).toBe('Expired 1 day ago');
    expect(formatExpiry(at(-4 * 86_400_000), now)).toBe('Expired 4 days ago');
  });

  it('counts down in minutes under an hour, never rounding up to an hour', () => {
    const now = Date.UTC(2025, 0, 10, 12);
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(formatExpiry(at(-24_000), now)).toBe('Expired less than a minute ago');
    expect(formatExpiry(at(30_000), now)).toBe('Expires in less than a minute');
    expect(formatExpiry(at(-61_000), now)).toBe('Expired 1 minute ago');
    expect(formatExpiry(at(19 * 60_000 + 59_000), now)).toBe('Expires in 19 minutes');
    expect(formatExpiry(at(24 * 60_000), now)).toBe('Expires in 24 minutes');
    expect(formatExpiry(at(59 * 60_000 + 59_000), now)).toBe('Expires in 59 minutes');
    expect(formatExpiry(at(-(23 * 3_600_000 + 59 * 60_000)), now)).toBe('Expired 23 hours ago');
  });
});
