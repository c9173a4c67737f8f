import { messages, unmetPasswordRequirements } from '@filerunner/protocol';

export interface PasswordPairErrors {
  password?: string;
  confirm?: string;
}

/**
 * The client-side checks of a new password and its confirmation, in the order the user meets
 * them: required, the password rules, then the match. The server checks all of it again.
 */
export function checkPasswordPair(
  password: string,
  confirm: string,
  required: { password: string; confirm: string } = {
    password: messages.password.required,
    confirm: messages.password.required,
  },
): PasswordPairErrors {
  const errors: PasswordPairErrors = {};
  const unmet = unmetPasswordRequirements(password);
  if (!password) errors.password = required.password;
  else if (unmet.length > 0) errors.password = `${messages.password.tooWeak}${unmet.join(', ')}`;
  if (!confirm) errors.confirm = required.confirm;
  else if (password && confirm !== password) errors.confirm = messages.password.mismatch;
  return errors;
}

/** The first message of each field of a `{"field": ["message"]}` answer. */
export function firstErrors(fieldErrors: Record<string, string[]>): Record<string, string> {
  const first: Record<string, string> = {};
  for (const [field, list] of Object.entries(fieldErrors)) {
    if (list[0]) first[field] = list[0];
  }
  return first;
}
