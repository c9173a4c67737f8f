import { formatDateTime, formatSize } from '@filerunner/protocol';
import type { OutboxMail } from '../db/schema';

interface ReceivedPackage {
  name: string;
  message: string;
  numFiles: number;
  bytes: number;
  expiresAt: Date;
}

/**
 * The mail that tells a recipient a package has arrived. `link` is their inbox for people with
 * an account, or the external page with their own key for everyone else; the key is in this
 * mail only (the database keeps its hash).
 */
export function packageReceivedMail(input: {
  /** `timeZone`: the zone the person chose, '' for none (the mail then says UTC). */
  to: { email: string; firstName: string; timeZone: string };
  link: string;
  senderName: string;
  contractName: string;
  pkg: ReceivedPackage;
  pinRequired: boolean;
}): OutboxMail {
  const { to, pkg } = input;
  // A mail has no browser to ask: the date is in the person's own zone, named, else in UTC.
  const zone = to.timeZone || 'UTC';
  return {
    to: to.email,
    subject: `${input.senderName} sent you "${pkg.name}"`,
    text: [
      input.link,
      '',
      to.firstName ? `Hello ${to.firstName},` : 'Hello,',
      '',
      `${input.senderName} (${input.contractName}) sent you the package "${pkg.name}": ${pkg.numFiles} file(s), ${formatSize(pkg.bytes)}.`,
      ...(pkg.message ? ['', pkg.message] : []),
      '',
      `Open the link above to download it. It is available until ${formatDateTime(pkg.expiresAt, zone)} (${zone}).`,
      ...(input.pinRequired
        ? ['To open it you will be asked for a PIN, sent by text message to your mobile.']
        : []),
    ].join('\n'),
  };
}
