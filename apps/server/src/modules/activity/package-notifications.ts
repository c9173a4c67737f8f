import type { ContractRow } from '../../db/rows';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { enqueueMail } from '../../jobs/outbox-sender';
import { timeZonesByEmail } from '../accounts/accounts.repository';

export type PackageEvent = 'sent' | 'downloaded' | 'expiring';

const SUBJECTS: Record<PackageEvent, (name: string) => string> = {
  sent: (name) => `Package sent: ${name}`,
  downloaded: (name) => `Package downloaded: ${name}`,
  expiring: (name) => `Package expiring soon: ${name}`,
};

/**
 * Mails the people on the contract's notification list (Settings > General) about a package
 * event. Call it in the transaction of the change, so the mail leaves only if the change commits.
 * Returns how many mails were queued.
 */
export async function notifyContractWatchers(
  db: Database,
  config: Config,
  contract: Pick<ContractRow, 'name' | 'settings'>,
  event: PackageEvent,
  pkg: {
    name: string;
    senderName: string;
    /** A line about the event; given a time zone when it tells a date . */
    detail?: string | ((timeZone: string) => string);
  },
): Promise<number> {
  const watchers = contract.settings.notifications.filter((n) => n.enabled);
  // A date is told in the zone the address's account chose, else in UTC; either way it is named.
  const zones =
    typeof pkg.detail === 'function'
      ? await timeZonesByEmail(
          db,
          watchers.map((w) => w.email),
        )
      : new Map<string, string>();
  for (const watcher of watchers) {
    const detail =
      typeof pkg.detail === 'function'
        ? pkg.detail(zones.get(watcher.email.trim().toLowerCase()) || 'UTC')
        : pkg.detail;
    await enqueueMail(db, {
      to: watcher.email,
      subject: SUBJECTS[event](pkg.name),
      text: [
        `${config.publicUrl}/activity`,
        '',
        `Hello ${watcher.name},`,
        '',
        `In ${contract.name}, the package "${pkg.name}" sent by ${pkg.senderName} ${event === 'expiring' ? 'is about to expire' : `was ${event}`}.`,
        ...(detail ? ['', detail] : []),
        '',
        'You receive this because you are on the notification list of this contract.',
      ].join('\n'),
    });
  }
  return watchers.length;
}
