import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client';

/** The PostgreSQL channel every server process listens on for events to push to browsers. */
export const EVENTS_CHANNEL = 'filerunner_events';

/** A package reached these users. */
export interface PackageReceivedEvent {
  type: 'package_received';
  package: { slug: string; contract_slug: string };
  user_ids: number[];
}

/** A recipient's download of a package started or finished, or earned a receipt: its sender. */
export interface PackageDownloadedEvent {
  type: 'package_downloaded';
  package: { slug: string };
  user_ids: number[];
}

/** Sessions ended (logout, or every session of a user): their sockets close. */
export interface SessionsEndedEvent {
  type: 'sessions_ended';
  /** Hashes of the ended sessions' tokens (never the tokens). */
  session_hashes?: string[];
  /** Every session of this user ended. */
  user_id?: number;
}

/** What travels in a NOTIFY on the events channel. */
export type RealtimeEvent = PackageReceivedEvent | PackageDownloadedEvent | SessionsEndedEvent;

/**
 * Tells every server process that a package reached these users, so their open browsers show it
 * at once. Run it inside the transaction that makes the package visible: PostgreSQL delivers a
 * NOTIFY only when that transaction commits, and drops it if it rolls back, so nobody is told
 * about a package they cannot open yet. Without `recipientUserIds`, every recipient of the
 * package who has an account and was not removed is told.
 */
export async function announcePackageReceived(
  db: Database,
  packageId: number,
  recipientUserIds?: number[],
): Promise<void> {
  const [pkg] = await queryRows<{ slug: string; contract_slug: string }>(
    db,
    sql`select p.slug, c.slug as contract_slug
        from packages p join contracts c on c.id = p.contract_id
        where p.id = ${packageId}`,
  );
  if (!pkg) return;
  let userIds = recipientUserIds;
  if (!userIds) {
    const rows = await queryRows<{ user_id: number }>(
      db,
      sql`select distinct user_id from package_recipients
          where package_id = ${packageId} and not removed and user_id is not null`,
    );
    userIds = rows.map((r) => Number(r.user_id));
  }
  userIds = [...new Set(userIds)];
  if (!userIds.length) return;
  const event: PackageReceivedEvent = {
    type: 'package_received',
    package: { slug: pkg.slug, contract_slug: pkg.contract_slug },
    user_ids: userIds,
  };
  // A NOTIFY payload is capped near 8000 bytes; a package sent to very many users is split.
  for (const chunk of chunks(userIds, 500)) {
    await db.execute(
      sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ ...event, user_ids: chunk })})`,
    );
  }
}

/**
 * Tells the package's sender that its download history changed (a download started or
 * finished, a receipt was signed), so an open Sent screen shows it at once. In the caller's
 * transaction, so the event leaves only with what it announces.
 */
export async function announcePackageDownloaded(db: Database, packageId: number): Promise<void> {
  const [pkg] = await queryRows<{ slug: string; sender_id: number | null }>(
    db,
    sql`select slug, sender_id from packages where id = ${packageId}`,
  );
  if (pkg?.sender_id == null) return;
  const event: PackageDownloadedEvent = {
    type: 'package_downloaded',
    package: { slug: pkg.slug },
    user_ids: [Number(pkg.sender_id)],
  };
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Tells every server process that sessions ended, so the sockets opened with them close at once
 * rather than at their next heartbeat. `db` is the caller's transaction when it has one.
 */
export async function announceSessionsEnded(
  db: Database,
  ended: { sessionHash: string } | { userId: number },
): Promise<void> {
  const event: SessionsEndedEvent =
    'sessionHash' in ended
      ? { type: 'sessions_ended', session_hashes: [ended.sessionHash] }
      : { type: 'sessions_ended', user_id: ended.userId };
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
}
