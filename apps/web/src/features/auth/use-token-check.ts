import { useEffect, useState } from 'react';
import { ApiError, type ApiClient } from '../../app/api-client';
import { useApi } from '../../app/hooks';

/** The check of a mailed link's token (spec: UNCHECKED, CHECKING, VALID, INVALID). */
export type TokenCheckState = 'UNCHECKED' | 'CHECKING' | 'VALID' | 'INVALID';

type Outcome<T> = { key: string } & (
  { state: 'VALID'; data: T } | { state: 'INVALID'; error: string }
);

/**
 * Checks `uid`/`token` once per pair with `check` (a stable function). An invalid token's reason
 * is the server's `errors.token[0]`, else `invalidMessage`. Without both parts nothing is checked.
 */
export function useTokenCheck<T>(
  uid: string | undefined,
  token: string | undefined,
  check: (api: ApiClient, uid: string, token: string) => Promise<T>,
  invalidMessage: string,
): { state: TokenCheckState; data?: T; error?: string } {
  const api = useApi();
  const [outcome, setOutcome] = useState<Outcome<T> | null>(null);
  const key = `${uid ?? ''}/${token ?? ''}`;

  useEffect(() => {
    if (!uid || !token) return;
    let current = true;
    check(api, uid, token).then(
      (data) => {
        if (current) setOutcome({ key, state: 'VALID', data });
      },
      (error: unknown) => {
        const reason = error instanceof ApiError ? error.fieldErrors.token?.[0] : undefined;
        if (current) setOutcome({ key, state: 'INVALID', error: reason ?? invalidMessage });
      },
    );
    return () => {
      current = false;
    };
  }, [api, uid, token, key, check, invalidMessage]);

  if (!uid || !token) return { state: 'UNCHECKED' };
  if (outcome?.key !== key) return { state: 'CHECKING' };
  return outcome.state === 'VALID'
    ? { state: 'VALID', data: outcome.data }
    : { state: 'INVALID', error: outcome.error };
}
