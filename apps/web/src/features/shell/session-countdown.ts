import { limits } from '@filerunner/protocol';

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
