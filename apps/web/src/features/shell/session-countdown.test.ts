import { describe, expect, it } from 'vitest';
import { secondsLeft, sessionWarningText, shouldWarn } from './session-countdown';

describe('session countdown', () => {
  it('counts whole seconds to the expiry and stops at zero', () => {
    expect(secondsLeft(null, 0)).toBeNull();
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 99_000)).toBe(0);
  });

  it('warns in the last 1800 seconds only', () => {
    expect(shouldWarn(null)).toBe(false);
    expect(shouldWarn(1801)).toBe(false);
    expect(shouldWarn(1800)).toBe(true);
    expect(shouldWarn(1)).toBe(true);
    expect(shouldWarn(0)).toBe(false);
  });

  it('says how long is left and how to extend', () => {
    expect(sessionWarningText(42)).toBe(
      'You will be logged out in 42 seconds, click to extend your session.',
    );
  });
});
