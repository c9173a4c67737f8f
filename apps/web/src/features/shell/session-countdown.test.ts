import { describe, expect, it } from 'vitest';
import { ApiError } from '../../app/api-client';
import {
  extendMeansSignedOut,
  secondsLeft,
  sessionWarningText,
  shouldWarn,
} from './session-countdown';

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

  it('signs out when an extend is refused as unauthenticated, not on other failures', () => {
    expect(extendMeansSignedOut({ code: 'HTTP_ERROR', status: 401, body: { detail: 'x' } })).toBe(
      true,
    );
    expect(extendMeansSignedOut(new ApiError('HTTP_ERROR', 401, undefined, 'gone'))).toBe(true);
    expect(extendMeansSignedOut({ code: 'HTTP_ERROR', status: 503, body: null })).toBe(false);
    expect(extendMeansSignedOut({ code: 'NETWORK_ERROR', status: 0, body: undefined })).toBe(false);
  });
});
