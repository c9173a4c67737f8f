import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  contracts,
  downloads,
  memberships,
  packageRecipients,
  packages,
  users,
} from '../../db/schema';
import type { NamedPerson } from '../accounts/display-name';
import { recipientDownload } from '../downloads/downloads.repository';
import { memberActive, memberFirstName, memberLastName } from '../memberships/member-view';
import { column, leftJoined, listOf, mapped, value, type ShapeValue } from './list-columns';

// The columns the Inbox and Sent lists show, each written once. The list statements
// (inbox-lists.repository.ts) select them and read them back from these shapes, and the views
// (inbox.views.ts) take the values they read, whose types come from here too. A package, a
// recipient or a sender read some other way (a detail page) has full rows, which fit.
//
// The statements read the package as `p`, its contract as `c`, the Inbox's recipient row as
// `r` and its sender as `s`; a Sent recipient's name comes from the bare `users` and
// `memberships` joined on them, which the member name expressions read.

export const p = alias(packages, 'p');
export const c = alias(contracts, 'c');
export const r = alias(packageRecipients, 'r');
export const s = alias(users, 's');
const d = alias(downloads, 'd');

/** What every view of a package reads of it and its contract. */
export const packageColumns = {
  pkg: {
    id: column(p.id),
    slug: column(p.slug),
    name: column(p.name),
    message: column(p.message),
    sentAt: column(p.sentAt),
    validFrom: column(p.validFrom),
    expiresAt: column(p.expiresAt),
    objectsDeletedAt: column(p.objectsDeletedAt),
    bytes: column(p.bytes),
    numFiles: column(p.numFiles),
    pinVerify: column(p.pinVerify),
    invalidFilenames: column(p.invalidFilenames),
  },
  contract: {
    id: column(c.id),
    slug: column(c.slug),
    name: column(c.name),
    settings: {
      can_extend_expiry: value(sql<boolean>`${c.settings}->'can_extend_expiry'`),
    },
  },
};

/** A package as a recipient's Inbox shows it: the sender (none once deleted) and their row. */
export const receivedColumns = {
  ...packageColumns,
  sender: mapped(
    {
      firstName: leftJoined(column(s.firstName)),
      lastName: leftJoined(column(s.lastName)),
      email: leftJoined(column(s.email)),
    },
    ({ firstName, lastName, email }): NamedPerson | null =>
      email === null ? null : { firstName: firstName ?? '', lastName: lastName ?? '', email },
  ),
  recipient: {
    seenAt: column(r.seenAt),
    removed: column(r.removed),
    downloaded: column(r.downloaded),
    pinRequired: column(r.pinRequired),
    pinVerifiedAt: column(r.pinVerifiedAt),
    mobile: column(r.mobile),
  },
};

/** A download that moved bytes, as the sender's list shows it. */
const downloadColumns = mapped(
  {
    firstByteAt: column(d.firstByteAt),
    lastByteAt: column(d.lastByteAt),
    ip: column(d.ip),
    bytesSent: column(d.bytesSent),
    completed: value(sql<boolean>`${d.completedAt} is not null`),
  },
  (download) => recipientDownload(download),
);

/** What the views read of a recipient row. */
export const recipientColumns = {
  id: column(r.id),
  packageId: column(r.packageId),
  userId: column(r.userId),
  email: column(r.email),
  mobile: column(r.mobile),
  pinRequired: column(r.pinRequired),
  pinVerifiedAt: column(r.pinVerifiedAt),
  removed: column(r.removed),
  seenAt: column(r.seenAt),
  downloaded: column(r.downloaded),
};

/**
 * A recipient as the sender's list shows them, named as the package's contract knows them, with
 * the downloads that moved any bytes, oldest first.
 */
export const sentRecipientColumns = {
  recipient: recipientColumns,
  email: leftJoined(column(users.email)),
  // Left-joined: a former member, or an address with no account, has no names.
  firstName: mapped(value<string | null>(memberFirstName), (name) => name ?? ''),
  lastName: mapped(value<string | null>(memberLastName), (name) => name ?? ''),
  verified: value(sql<boolean>`coalesce(${memberActive}, false)`),
  downloads: listOf(downloadColumns, {
    from: sql`from ${downloads} d where ${d.recipientId} = ${r.id}`,
    orderBy: sql`${d.firstByteAt}, ${d.id}`,
  }),
};

/** A package as its sender's Sent list shows it, with its recipients in the order added. */
export const sentColumns = {
  ...packageColumns,
  recipients: listOf(sentRecipientColumns, {
    from: sql`from ${packageRecipients} r
      left join ${users} on ${users.id} = ${r.userId}
      left join ${memberships} on ${memberships.contractId} = ${p.contractId}
        and ${memberships.userId} = ${users.id}
      where ${r.packageId} = ${p.id}`,
    orderBy: sql`${r.id}`,
  }),
};

/** What every view of a package reads: its columns, and its sender (none once deleted). */
export type PackageView = ShapeValue<typeof packageColumns> & { sender: NamedPerson | null };
export type ReceivedView = ShapeValue<typeof receivedColumns>;
export type SentRecipientView = ShapeValue<typeof sentRecipientColumns>;
/** What the sender's views read of a package: its columns and recipients, and its sender. */
export type SentView = ShapeValue<typeof sentColumns> & { sender: NamedPerson | null };
