import { messages } from '@filerunner/protocol';
import { asApiError } from '../../app/api-errors';

/** The success banners of the login page, by its `message` query value. */
export const loginBanners: Record<string, string> = {
  LOGIN_RESET: 'Your password has been reset. Please log in with your new password.',
  ACCOUNT_ACTIVATED: 'Your account has been activated. Please log in.',
  PASSWORD_UPDATED: 'Your password has been updated. Please log in with your new password.',
};

/**
 * The login form's failure: too many attempts says for how long, in the server's words; any other
 * failure gets the one message that does not tell which of email and password was wrong.
 */
export function loginFailureMessage(error: unknown): string {
  const failed = asApiError(error);
  return failed?.status === 429
    ? (failed.detail ?? messages.login.tooManyAttempts)
    : messages.login.failed;
}
