import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';
import { limits } from './limits';
import { pinMessages } from './pin-messages';

/** How long a PIN works after it was sent; only the last one sent works. */
export const PIN_TTL_SECONDS = 10 * 60;
/** Wrong PINs in a row after which the recipient's PIN is locked for `PIN_LOCK_SECONDS`. */
export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_SECONDS = 15 * 60;

/** The PIN dialog's states, as the client tracks them. */
export const pinStates = ['UNKNOWN', 'FAILED_TO_SEND_PIN', 'PIN_IS_NOT_VALID', 'OK'] as const;
export type PinState = (typeof pinStates)[number];

/**
 * The body of a refused PIN call: the client shows `detail.error`. Answered with 502 when the
 * text message could not be sent, 400 for a wrong or expired code, 429 when sends are limited
 * or the PIN is locked after too many wrong codes, 409 when there is nothing to verify.
 */
export const pinError = z.object({ detail: z.object({ error: z.string() }) });
export type PinError = z.infer<typeof pinError>;

/** A recipient's key from the mailed link (`?key=`): it opens that recipient of that package only. */
export const recipientKey = text().min(1).max(200);

/** A PIN as typed: exactly six digits (a pasted code with spaces around it is trimmed). */
export const pinCode = text(pinMessages.codeFormat)
  .trim()
  .regex(new RegExp(`^\\d{${limits.pinLength}}$`), pinMessages.codeFormat);

/** `pin_verify*` answer: a PIN is on its way to the number ending in `mobile_hint`. */
export const pinSent = z.object({
  /** The last digits of the number the PIN went to. */
  mobile_hint: z.string(),
  /** Seconds until this PIN stops working. */
  expires_in: z.number(),
});
export type PinSent = z.infer<typeof pinSent>;

/** `pin_verify_code*` answer: the PIN was right; downloads are open to this recipient. */
export const pinVerified = z.object({
  pin_verified: z.literal(true),
  locked: z.literal(false),
});
export type PinVerified = z.infer<typeof pinVerified>;

const packageParams = z.object({ slug: slugParam });

/**
 * PIN verification: a recipient of a PIN package asks for a 6-digit PIN by text message, then
 * enters it; once right, that recipient may download. Signed-in recipients use the plain calls;
 * holders of the mailed link use the `_external` ones with the link's key.
 */
export const pinRoutes = {
  send: defineRoute({
    method: 'POST',
    path: '/packages/:slug/pin_verify/',
    summary: "Text a new PIN to the signed-in recipient's mobile (earlier PINs stop working)",
    auth: 'user',
    params: packageParams,
    // The client sends the key it has, if any; a signed-in recipient is found by the session.
    body: z.object({ key: recipientKey.optional() }),
    status: 200,
    response: pinSent,
  }),
  sendExternal: defineRoute({
    method: 'POST',
    path: '/packages/:slug/pin_verify_external/',
    summary: 'Text a new PIN to the mobile of the recipient whose link key is given',
    auth: 'public',
    params: packageParams,
    body: z.object({ key: recipientKey }),
    status: 200,
    response: pinSent,
  }),
  verify: defineRoute({
    method: 'POST',
    path: '/packages/:slug/pin_verify_code/',
    summary: 'Check the PIN the signed-in recipient entered; right, it opens downloads',
    auth: 'user',
    params: packageParams,
    body: z.object({ code: pinCode, key: recipientKey.optional() }),
    status: 200,
    response: pinVerified,
  }),
  verifyExternal: defineRoute({
    method: 'POST',
    path: '/packages/:slug/pin_verify_code_external/',
    summary: "Check the PIN a link's recipient entered; right, it opens downloads for that key",
    auth: 'public',
    params: packageParams,
    body: z.object({ code: pinCode, key: recipientKey }),
    status: 200,
    response: pinVerified,
  }),
};
