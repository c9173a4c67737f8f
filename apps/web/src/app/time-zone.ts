import { useCallback } from 'react';
import { useSelector } from 'react-redux';
import { formatDateTime, localTimeZone } from '@filerunner/protocol';
import type { AuthState } from '../features/auth/auth-slice';

/**
 * The zone dates are shown in: the one the signed-in person chose in their profile, else the
 * browser's. The external page's store has no signed-in person, so it reads as the browser's.
 */
export function useTimeZone(): string {
  const chosen = useSelector((state: { auth?: AuthState }) => state.auth?.user?.timezone);
  return chosen || localTimeZone();
}

/** Formats a date as the product shows it ('Jan 5 2025 3:04 PM'), in `useTimeZone()`'s zone. */
export function useDateTimeFormat(): (date: Date | string) => string {
  const timeZone = useTimeZone();
  return useCallback((date: Date | string) => formatDateTime(date, timeZone), [timeZone]);
}
