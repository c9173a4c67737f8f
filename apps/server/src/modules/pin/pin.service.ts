import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  limits,
  mobileHint,
  PIN_LOCK_SECONDS,
  PIN_MAX_FAILURES,
  PIN_TTL_SECONDS,
  pinMessages,
  type PinSent,
  type PinVerified,
} from '@filerunner/protocol';
import type { PackageRow, RecipientRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { tokenHash } from '../../http/secrets';
import { SmsError } from '../../notify/sms';
import type { RateLimiter, Limit } from '../accounts/rate-limit';
import { pinLockedOut } from '../recipient-access/recipient-access';
import { findRecipientAccess } from '../recipient-access/recipient-access.repository';
import { assertMayAskPin, pinRefusal } from './pin.policy';
import { claimCheck, lockPin, markVerified, storePin } from './pin.repository';

/** Who is verifying: the signed-in user's recipient row, or the row a link key names. */
export type PinCaller = { principal: Principal } | { key: string };

/** The window of the send limits below. */
export const PIN_SEND_WINDOW_SECONDS = 3600;

/**
 * Sends allowed per window. Each text costs money and lands on someone's phone, so a recipient
 * gets a few retries, one number a few more (it may receive several packages), and one client
 * address enough for an office behind one NAT, but not a script walking through keys.
 */
const SEND_LIMITS = { recipient: 5, mobile: 10, address: 30 } as const;

// Argon2id (as for passwords): a PIN has only a million values, so a fast hash would give it
// away to anyone who read the table; at tens of milliseconds a guess, trying them all takes
// far longer than the ten minutes a PIN works.
const ARGON2ID = 2;

/** What a PIN call needs besides the caller: the app, and the limiter of PIN sends. */
export interface PinDeps {
  ctx: AppContext;
  limiter: RateLimiter;
}

/**
 * Texts a new 6-digit PIN to the recipient's mobile; from then on only it works, for ten
 * minutes. A text the service could not take is not counted against the recipient's limits.
 */
export async function sendPin(
  deps: PinDeps,
  caller: PinCaller,
  slug: string,
  ip: string,
): Promise<PinSent> {
  const { ctx, limiter } = deps;
  const now = new Date();
  const { recipient } = await recipientFor(deps, caller, slug, now);
  const mobile = recipient.mobile;
  if (!mobile) throw pinRefusal(409, 'conflict', pinMessages.noMobile);
  if (pinLockedOut(recipient, now)) throw pinRefusal(429, 'pin_locked', pinMessages.lockedOut);

  const sendLimits: Limit[] = [
    { key: `pin:recipient:${recipient.id}`, max: SEND_LIMITS.recipient },
    { key: `pin:mobile:${mobile}`, max: SEND_LIMITS.mobile },
    { key: `pin:ip:${ip}`, max: SEND_LIMITS.address },
  ];
  const hits = await limiter.take(sendLimits);
  if (!hits) throw pinRefusal(429, 'rate_limited', pinMessages.tooManySends);

  const code = newPin();
  const codeHash = await hash(code, { algorithm: ARGON2ID });
  try {
    await ctx.sms.send({ to: mobile, body: pinText(code) });
  } catch (error) {
    await limiter.giveBack(hits);
    if (!(error instanceof SmsError)) throw error;
    ctx.log.warn(
      { err: error, recipientId: recipient.id },
      'PIN text message not sent: the text message service failed',
    );
    throw pinRefusal(502, 'sms_failed', pinMessages.sendFailed);
  }
  // Stored once the text has gone: until then the PIN sent before it is still the last one.
  await storePin(ctx.db, recipient.id, codeHash, now);
  ctx.log.info({ recipientId: recipient.id }, 'PIN sent');
  return { mobile_hint: mobileHint(mobile), expires_in: PIN_TTL_SECONDS };
}

/**
 * Checks a PIN entered by the recipient. The right one, while it works (the last one sent, less
 * than ten minutes old), opens downloads to that recipient; the fifth wrong one in a row locks
 * the recipient's PIN for fifteen minutes and drops the PIN sent.
 */
export async function verifyPin(
  deps: PinDeps,
  caller: PinCaller,
  slug: string,
  code: string,
): Promise<PinVerified> {
  const { ctx } = deps;
  const now = new Date();
  const { recipient } = await recipientFor(deps, caller, slug, now);
  if (pinLockedOut(recipient, now)) throw pinRefusal(429, 'pin_locked', pinMessages.lockedOut);
  const codeHash = recipient.pinCodeHash;
  if (!codeHash || !recipient.pinSentAt || codeExpired(recipient.pinSentAt, now)) {
    throw notValid();
  }

  const failures = await claimCheck(ctx.db, recipient.id, codeHash, PIN_MAX_FAILURES, now);
  if (failures === null) {
    // Parallel checks used up the last tries (the lock follows), or a newer PIN was sent.
    const locked = await outOfTries(deps, caller, slug, now);
    throw locked ? pinRefusal(429, 'pin_locked', pinMessages.lockedOut) : notValid();
  }
  if (await pinMatches(codeHash, code)) {
    if (await markVerified(ctx.db, recipient.id, codeHash, now)) {
      ctx.log.info({ recipientId: recipient.id }, 'PIN verified');
      return { pin_verified: true, locked: false };
    }
    throw notValid();
  }
  if (failures >= PIN_MAX_FAILURES) {
    await lockPin(ctx.db, recipient.id, new Date(now.getTime() + PIN_LOCK_SECONDS * 1000));
    ctx.log.warn({ recipientId: recipient.id }, 'PIN locked after too many wrong PINs');
    throw pinRefusal(429, 'pin_locked', pinMessages.lockedOut);
  }
  throw notValid();
}

async function recipientFor(
  deps: PinDeps,
  caller: PinCaller,
  slug: string,
  now: Date,
): Promise<{ pkg: PackageRow; recipient: RecipientRow }> {
  const { db } = deps.ctx;
  const found = await findRecipientAccess(
    db,
    slug,
    'key' in caller ? { keyHash: tokenHash(caller.key) } : { userId: caller.principal.user.id },
  );
  assertMayAskPin(found, now);
  return found;
}

async function outOfTries(
  deps: PinDeps,
  caller: PinCaller,
  slug: string,
  now: Date,
): Promise<boolean> {
  const { recipient } = await recipientFor(deps, caller, slug, now);
  return pinLockedOut(recipient, now) || recipient.pinFailures >= PIN_MAX_FAILURES;
}

function codeExpired(sentAt: Date, now: Date): boolean {
  return now.getTime() >= sentAt.getTime() + PIN_TTL_SECONDS * 1000;
}

function notValid() {
  return pinRefusal(400, 'pin_invalid', pinMessages.notValid);
}

/** Six digits from the system's secure random source, leading zeros kept. */
function newPin(): string {
  return String(randomInt(0, 10 ** limits.pinLength)).padStart(limits.pinLength, '0');
}

async function pinMatches(codeHash: string, code: string): Promise<boolean> {
  try {
    return await verify(codeHash, code);
  } catch {
    return false;
  }
}

/** The text itself: the PIN and how long it works, and no link (texts are easy to forge). */
function pinText(code: string): string {
  return `Your FileRunner PIN is ${code}. It works for ${PIN_TTL_SECONDS / 60} minutes. Do not share it.`;
}
