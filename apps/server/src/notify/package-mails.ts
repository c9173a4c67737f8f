import type { OutboxMail } from '../db/schema';

interface ReceivedPackage {
  name: string;
  message: string;
  numFiles: number;
  bytes: number;
  expiresAt: Date;
}

/** Bytes as people read them (decimal units, as the product shows sizes). */
function readableSize(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * The mail that tells a recipient a package has arrived. `link` is their inbox for people with
 * an account, or the external page with their own key for everyone else; the key is in this
 * mail only (the database keeps its hash).
 */
export function packageReceivedMail(input: {
  to: { email: string; firstName: string };
  link: string;
  senderName: string;
  contractName: string;
  pkg: ReceivedPackage;
  pinRequired: boolean;
}): OutboxMail {
  const { to, pkg } = input;
  return {
    to: to.email,
    subject: `${input.senderName} sent you "${pkg.name}"`,
    text: [
      input.link,
      '',
      to.firstName ? `Hello ${to.firstName},` : 'Hello,',
      '',
      `${input.senderName} (${input.contractName}) sent you the package "${pkg.name}": ${pkg.numFiles} file(s), ${readableSize(pkg.bytes)}.`,
      ...(pkg.message ? ['', pkg.message] : []),
      '',
      `Open the link above to download it. It is available until ${pkg.expiresAt.toUTCString()}.`,
      ...(input.pinRequired
        ? ['To open it you will be asked for a PIN, sent by text message to your mobile.']
        : []),
    ].join('\n'),
  };
}
