import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A mobile number as stored and sent: E.164 with its leading +, which is added when missing
 * (spec: "Mobile gets a leading + if missing"). Null when it is not a valid number.
 */
export function normalizeMobile(input: string): string | null {
  const trimmed = input.replace(/[\s()-]/g, '');
  if (!trimmed) return null;
  const phone = parsePhoneNumberFromString(trimmed.startsWith('+') ? trimmed : `+${trimmed}`);
  return phone?.isValid() ? phone.number : null;
}

/** The last digits of a number, shown to a recipient asked for a PIN (`mobile_hint`). */
export function mobileHint(mobile: string): string {
  return mobile.slice(-3);
}
