import { limits } from '@filerunner/protocol';

const PIN_LENGTH = limits.pinLength;

/** The PIN as typed so far: one entry per input, '' where nothing is typed yet. */
export type PinDigits = readonly string[];

export const emptyPin = (): PinDigits => Array.from({ length: PIN_LENGTH }, () => '');

/** Where the typing goes next: the index to focus, or null to stay. */
export interface PinEdit {
  digits: PinDigits;
  focus: number | null;
}

/**
 * What typing into input `index` makes of the PIN. Only digits are taken; a second digit typed
 * into a filled input replaces it; a typed digit moves on to the next input. A whole code typed
 * or pasted into one input is spread over all of them.
 */
export function typeInto(digits: PinDigits, index: number, typed: string): PinEdit {
  const pasted = wholeCode(typed);
  if (pasted) return { digits: pasted, focus: PIN_LENGTH - 1 };
  const onlyDigits = typed.replace(/\D/g, '');
  if (typed !== '' && onlyDigits === '') return { digits, focus: null };
  // The input keeps the digit it had and appends the new one: the new one is the last.
  const digit = onlyDigits.slice(-1);
  const next = digits.map((d, i) => (i === index ? digit : d));
  const focus = digit && index < PIN_LENGTH - 1 ? index + 1 : null;
  return { digits: next, focus };
}

/**
 * A paste into input `index`: a whole PIN fills every input; other digits fill the inputs from
 * `index` on, as far as they go.
 */
export function pasteInto(digits: PinDigits, index: number, text: string): PinEdit {
  const whole = wholeCode(text);
  if (whole) return { digits: whole, focus: PIN_LENGTH - 1 };
  const pasted = text
    .replace(/\D/g, '')
    .slice(0, PIN_LENGTH - index)
    .split('');
  if (pasted.length === 0) return { digits, focus: null };
  const next = digits.map((d, i) =>
    i >= index && i < index + pasted.length ? pasted[i - index]! : d,
  );
  return { digits: next, focus: Math.min(index + pasted.length, PIN_LENGTH - 1) };
}

/**
 * Backspace in input `index`: clears it, or when it is already empty, clears the one before and
 * moves there, as people expect of split code inputs.
 */
export function backspaceIn(digits: PinDigits, index: number): PinEdit {
  if (digits[index]) return { digits: digits.map((d, i) => (i === index ? '' : d)), focus: null };
  if (index === 0) return { digits, focus: null };
  return { digits: digits.map((d, i) => (i === index - 1 ? '' : d)), focus: index - 1 };
}

/**
 * A pasted text as the six digits of a PIN, or null when it is not one. Spaces and dashes that
 * text messages and people put between digit groups are ignored; anything else refuses it.
 */
export function wholeCode(text: string): PinDigits | null {
  const compact = text.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${PIN_LENGTH}}$`).test(compact) ? compact.split('') : null;
}

/** The code to send when all six digits are there, else null (the inputs are then in error). */
export function completeCode(digits: PinDigits): string | null {
  const code = digits.join('');
  return code.length === PIN_LENGTH && /^\d+$/.test(code) ? code : null;
}
