import {
  inboxMessages,
  normalizeMobile,
  sendMessages,
  type AddRecipientsRequest,
  type SentPackage,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { findUserById } from '../accounts/accounts.repository';
import { senderName } from '../accounts/display-name';
import {
  reachableBy,
  recipientMobiles,
  resolveRecipients,
} from '../packages/create-package.service';
import { keyAndMailRecipient } from '../packages/recipient-mail';
import { announceWhenOpen } from '../packages/package-received';
import { assertMayAddRecipients, assertNotExpired, sentBy } from './inbox.policy';
import {
  markRecipientRemoved,
  recipientRowOfUser,
  requirePinVerify,
  saveAddedRecipient,
  setRecipientMobile,
} from './inbox.repository';
import { sentViews } from './inbox.service';

// The sender's changes to a package already sent: add recipients, remove one, change the mobile
// one proves a PIN with. Each is the sender's alone, takes effect at once, and answers the
// package as the Sent screen shows it.

async function sentAnswer(ctx: AppContext, principal: Principal, slug: string) {
  const [view] = await sentViews(ctx.db, [await sentBy(ctx.db, principal, slug)]);
  return view!;
}

/**
 * Adds recipients by the rules of sending (groups, ad-hoc policy, PIN mobiles), gives each a
 * link key and mails it, and tells their open inboxes, all when the change commits. The
 * package's expiry stays. Someone removed earlier is given access again, with a new key.
 */
export async function addRecipients(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  input: AddRecipientsRequest,
): Promise<SentPackage> {
  const row = await sentBy(ctx.db, principal, slug);
  assertMayAddRecipients(row);
  assertNotExpired(row);
  const { pkg, contract } = row;
  const settings = contract.settings;
  const entries = input.recipients.map((r) => ({ id: r.user, email: r.email, mobile: r.mobile }));
  const mobiles = recipientMobiles(entries);
  const pinVerify =
    pkg.pinVerify ||
    settings.pin_verification === 'all' ||
    (settings.pin_verification === 'adhoc' && input.pin_verify);
  const reachable = await reachableBy(ctx.db, contract.id, principal.user.id);

  await ctx.db.transaction(async (tx) => {
    const resolved = await resolveRecipients(tx, contract, reachable, entries, mobiles, {
      pinVerify,
      pinMobilesMessage:
        settings.pin_verification === 'all' ? inboxMessages.pinMobilesAll : sendMessages.pinMobiles,
    });
    if (pinVerify && !pkg.pinVerify) {
      await requirePinVerify(tx, pkg.id);
    }
    const added: number[] = [];
    for (const recipient of resolved.values()) {
      const existing = await recipientRowOfUser(tx, pkg.id, recipient.userId);
      if (existing && !existing.removed) {
        throw ApiError.fields({ recipients: [inboxMessages.alreadyRecipient] });
      }
      // Someone removed earlier gets access again, and proves a PIN afresh.
      const saved = await saveAddedRecipient(tx, pkg.id, recipient.userId, existing, {
        email: recipient.email,
        mobile: recipient.mobile,
        pinRequired: recipient.pinRequired,
      });
      const user = await findUserById(tx, recipient.userId);
      await keyAndMailRecipient(ctx, tx, {
        recipient: saved,
        user: user ?? null,
        pkg,
        senderName: senderName(row.sender),
        contractName: contract.name,
        message: input.message.trim() || pkg.message,
      });
      added.push(recipient.userId);
    }
    // Delivered when this transaction commits (or at the access period's start, if later), so
    // nobody hears of a package they cannot open.
    await announceWhenOpen(ctx, tx, pkg, added);
  });
  return sentAnswer(ctx, principal, slug);
}

/** Ends a recipient's access at once: lists, files and every download grant refuse them. */
export async function removeRecipient(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  userId: number,
): Promise<SentPackage> {
  const { pkg } = await sentBy(ctx.db, principal, slug);
  if (!(await markRecipientRemoved(ctx.db, pkg.id, userId))) {
    throw ApiError.detail(404, 'not_found', inboxMessages.recipientNotFound);
  }
  return sentAnswer(ctx, principal, slug);
}

/**
 * Changes the mobile a recipient's PINs for this package go to. Not once the package has
 * expired, nor for a recipient who was removed.
 */
export async function updateRecipientMobile(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  userId: number,
  mobileInput: string,
): Promise<SentPackage> {
  const row = await sentBy(ctx.db, principal, slug);
  const recipient = await recipientRowOfUser(ctx.db, row.pkg.id, userId);
  if (!recipient) throw ApiError.detail(404, 'not_found', inboxMessages.recipientNotFound);
  assertNotExpired(row);
  if (recipient.removed) throw ApiError.detail(400, 'validation', inboxMessages.recipientRemoved);
  const mobile = normalizeMobile(mobileInput);
  if (!mobile) throw ApiError.fields({ mobile: [inboxMessages.mobileInvalid] });
  await setRecipientMobile(ctx.db, recipient.id, mobile);
  return sentAnswer(ctx, principal, slug);
}
