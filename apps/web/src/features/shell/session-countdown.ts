import { limits } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';

/** Whole seconds until the session ends (0 once it has), or null when the expiry is unknown. */
export function secondsLeft(expiresAt: number | null, now: number): number | null {
  if (expiresAt === null) return null;
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** Whether to offer extending the session: in its last 1800 s, before it ends. */
export function shouldWarn(seconds: number | null): boolean {
  return seconds !== null && seconds > 0 && seconds <= limits.sessionWarningSeconds;
}

export function sessionWarningText(seconds: number): string {
  return `You will be logged out in ${seconds} seconds, click to extend your session.`;
}

/**
 * Whether a refused extend means the session is over (it reached its maximum age, or was ended
 * elsewhere): then the app signs out as when the countdown runs out. Any other failure (offline,
 * a server fault) leaves the countdown to run.
 */
export function extendMeansSignedOut(error: unknown): boolean {
  return asApiError(error)?.status === 401;
}
