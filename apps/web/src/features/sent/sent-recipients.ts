import {
  normalizeMobile,
  sendMessages,
  type Contract,
  type DownloadStatus,
  type RouteArgs,
  type SentPackage,
  type SentRecipient,
  api,
} from '@filerunner/protocol';
import { recipientMessages } from '../packages/package-screen';
import { mobileProblem, needsMobile, pinApplies, type Recipient } from '../share/share-form';

export const downloadStatusLabel: Record<
  DownloadStatus,
  { label: string; color: 'default' | 'warning' | 'success' }
> = {
  none: { label: 'Not downloaded', color: 'default' },
  partial: { label: 'Partially downloaded', color: 'warning' },
  complete: { label: 'Downloaded', color: 'success' },
};

/** Who a sent package went to, for its list row: the first recipient and how many more. */
export function recipientsSummary(recipients: readonly SentRecipient[]): string {
  const [first, ...others] = recipients;
  if (!first) return 'No recipients';
  return others.length ? `${first.name} +${others.length}` : first.name;
}

/** Whether the sender may still change this recipient (remove, new mobile). */
export function recipientEditable(pkg: SentPackage, recipient: SentRecipient): boolean {
  return !pkg.expired && !recipient.removed;
}

/** What is wrong with a new mobile for a recipient, before it is sent; null when nothing. */
export function mobileUpdateProblem(mobile: string): string | null {
  if (!mobile.trim()) return recipientMessages.mobileRequired;
  return normalizeMobile(mobile) ? null : recipientMessages.mobileInvalid;
}

/** The people already on the package, so the picker does not offer them again. */
export function existingAsChosen(pkg: SentPackage): Recipient[] {
  return pkg.recipients
    .filter((r) => !r.removed)
    .map((r) => ({
      id: r.id,
      email: r.email.toLowerCase(),
      name: r.name,
      verified: r.verified,
      mobile: r.mobile ?? '',
    }));
}

/**
 * What stops the new recipients from being added: none chosen, or the PIN mobiles the package's
 * PIN rule asks for (everybody in mode all, the unverified in mode adhoc) missing or invalid.
 */
export function addRecipientsProblem(
  added: readonly Recipient[],
  pkg: SentPackage,
  contract: Contract,
): string | null {
  if (added.length === 0) return sendMessages.selectRecipients;
  const mode = contract.settings.pin_verification;
  const needing = added.filter((r) => needsMobile(r, mode, pkg.pin_verified));
  if (needing.some((r) => !r.mobile.trim())) {
    return mode === 'all' ? recipientMessages.pinMobilesAll : sendMessages.pinMobiles;
  }
  if (needing.some((r) => mobileProblem(r.mobile))) return sendMessages.invalidMobile;
  return null;
}

export type AddRecipientsArgs = RouteArgs<typeof api.inbox.addRecipients>;

/** The add-recipients call: users by id, new addresses by email, mobiles only where a PIN applies. */
export function addRecipientsArgs(
  added: readonly Recipient[],
  pkg: SentPackage,
  contract: Contract,
  message: string,
): AddRecipientsArgs {
  const mode = contract.settings.pin_verification;
  return {
    params: { slug: pkg.slug },
    body: {
      contract: contract.slug,
      message,
      pin_verify: pinApplies(mode, pkg.pin_verified),
      recipients: added.map((r) => {
        const mobile = needsMobile(r, mode, pkg.pin_verified) ? normalizeMobile(r.mobile) : null;
        return r.id > 0 ? { user: r.id, mobile } : { email: r.email, mobile };
      }),
    },
  };
}
