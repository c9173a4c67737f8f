import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A mobile number with its leading + added when missing, or '' for none: the web app sends a
 * phone field's value this way, and the server adds the + the same way before parsing.
 */
export function withLeadingPlus(mobile: string): string {
  const trimmed = mobile.trim();
  if (!trimmed) return '';
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}

/**
 * A mobile number as stored and sent: E.164 with its leading +, which is added when missing
 * ("Mobile gets a leading + if missing"). Null when it is not a valid number.
 */
export function normalizeMobile(input: string): string | null {
  const trimmed = input.replace(/[\s()-]/g, '');
  if (!trimmed) return null;
  const phone = parsePhoneNumberFromString(withLeadingPlus(trimmed));
  return phone?.isValid() ? phone.number : null;
}

/** The last digits of a number, shown to a recipient asked for a PIN (`mobile_hint`). */
export function mobileHint(mobile: string): string {
  return mobile.slice(-3);
}
