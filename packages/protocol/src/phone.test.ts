import { describe, expect, it } from 'vitest';
import { normalizeMobile, withLeadingPlus } from './phone';

describe('mobile numbers', () => {
  it('adds the leading + to a mobile number and leaves none empty', () => {
    expect(withLeadingPlus('447700900123')).toBe('+447700900123');
    expect(withLeadingPlus('+447700900123')).toBe('+447700900123');
    expect(withLeadingPlus(' 447700900123 ')).toBe('+447700900123');
    expect(withLeadingPlus('  ')).toBe('');
  });

  it('stores a valid number as E.164 whether or not it came with its +', () => {
    expect(normalizeMobile('447911123456')).toBe('+447911123456');
    expect(normalizeMobile('+44 (7911) 123-456')).toBe('+447911123456');
    expect(normalizeMobile('  ')).toBeNull();
    expect(normalizeMobile('12')).toBeNull();
  });
});
