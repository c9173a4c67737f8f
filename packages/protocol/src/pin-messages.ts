// Apart from the PIN calls' schemas (pin.ts): the PIN dialog shows these without loading zod.

/** What the PIN calls answer in `detail.error`, and the texts the dialog falls back to. */
export const pinMessages = {
  sendFailed: 'Sorry we had problems sending you a pin code',
  sendFailedDefault: 'Failed to send PIN',
  notValid: 'Sorry the PIN entered is not valid',
  notValidDefault: 'Pin is not Valid',
  codeFormat: 'Enter the 6 digits of the PIN.',
  noMobile: 'There is no mobile number for you on this package. Please ask the sender to add one.',
  notRequired: 'This package does not need a PIN.',
  tooManySends: 'Too many PIN requests. Please wait a few minutes and try again.',
  lockedOut: 'Too many wrong PINs. Please wait 15 minutes and request a new one.',
} as const;
