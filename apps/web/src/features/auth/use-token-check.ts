import { useEffect } from 'react';
import { messages, type ActivationTokenCheck } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { useCheckActivationTokenMutation, useCheckResetTokenMutation } from './auth-api';

/** The check of a mailed link's token (UNCHECKED, CHECKING, VALID, INVALID). */
export type TokenCheckState = 'UNCHECKED' | 'CHECKING' | 'VALID' | 'INVALID';

export interface TokenCheck<T> {
  state: TokenCheckState;
  data?: T;
  error?: string;
}

interface CheckResult<T> {
  isSuccess: boolean;
  isError: boolean;
  data?: T;
  error?: unknown;
  originalArgs?: { body: { uid: string; token: string } };
}

/** Where the check of this uid/token pair stands (an answer about another pair is not news). */
function tokenCheckOf<T>(
  uid: string | undefined,
  token: string | undefined,
  result: CheckResult<T>,
  invalidMessage: string,
): TokenCheck<T> {
  if (!uid || !token) return { state: 'UNCHECKED' };
  const checked = result.originalArgs?.body;
  if (checked?.uid !== uid || checked.token !== token) return { state: 'CHECKING' };
  if (result.isSuccess) return { state: 'VALID', data: result.data };
  if (result.isError) {
    // The server's reason is `errors.token[0]`; a fault or no answer reads as an invalid link.
    const reason = asApiError(result.error)?.fieldErrors.token?.[0];
    return { state: 'INVALID', error: reason ?? invalidMessage };
  }
  return { state: 'CHECKING' };
}

/**
 * Checks a password reset link once per uid/token pair. Without both parts nothing is checked.
 * The check is made on every visit, never answered from a cache: a link stops working once used.
 */
export function useResetTokenCheck(uid?: string, token?: string): TokenCheck<unknown> {
  const [check, result] = useCheckResetTokenMutation();
  useEffect(() => {
    if (uid && token) void check({ body: { uid, token } });
  }, [check, uid, token]);
  return tokenCheckOf(uid, token, result, messages.reset.invalidToken);
}

/** Checks an activation link like a reset link; a good one answers the invitation's details. */
export function useActivationTokenCheck(
  uid?: string,
  token?: string,
): TokenCheck<ActivationTokenCheck> {
  const [check, result] = useCheckActivationTokenMutation();
  useEffect(() => {
    if (uid && token) void check({ body: { uid, token } });
  }, [check, uid, token]);
  return tokenCheckOf(uid, token, result, messages.activation.invalidToken);
}
