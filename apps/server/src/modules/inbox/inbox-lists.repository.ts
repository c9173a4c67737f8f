import { eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { limits, listCountCap, unseenCountCap } from '@filerunner/protocol';
import type { RecipientRow, UserRow } from '../../db/rows';
import { preparedOnce, type Database } from '../../db/client';
import {
  contracts,
  downloads,
  memberships,
  packageRecipients,
  packages,
  users,
} from '../../db/schema';
import { recipientDownload, type RecipientDownload } from '../downloads/downloads.repository';
import { mayListSql, mayUseSql, recipientRowOf } from '../recipient-access/recipient-access.sql';
import { memberActive, memberFirstName, memberLastName } from '../memberships/member-view';
import { type NamedRecipient } from './inbox.repository';
import type { PackageView, ReceivedView } from './inbox.views';

// The Inbox and Sent lists, each one prepared statement: the page, its count and (Inbox) the
// badge's unseen counts come in one round trip, with only the columns the answer shows.
//
// PostgreSQL plans a prepared statement afresh on each run until its plan for any values (the
// generic one) looks no worse than those. A LIMIT or OFFSET it cannot see counts as a tenth of
// the table there, so it never settles, and planning these statements cost as much as running
// them (about a millisecond). So the caps and the page size are written into the statements,
// and the first page, which nearly every call asks for, is a statement without an OFFSET: after
// a few runs it is planned once per connection. Later pages keep their OFFSET as a parameter.

/** A package's timestamp as whole milliseconds since the epoch, as a JSON number. */
const epochMs = (column: string) => sql.raw(`floor(extract(epoch from ${column}) * 1000)::int8`);
const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

// The page comes as one JSON value. These are the columns every package view reads; `p` is the
// package, `c` its contract.
const packageJson = sql`'id', p.id, 'slug', p.slug, 'name', p.name, 'message', p.message,
  'sent_at', ${epochMs('p.sent_at')}, 'valid_from', ${epochMs('p.valid_from')},
  'expires_at', ${epochMs('p.expires_at')}, 'objects_deleted_at', ${epochMs('p.objects_deleted_at')},
  'bytes', p.bytes, 'num_files', p.num_files, 'pin_verify', p.pin_verify,
  'invalid_filenames', p.invalid_filenames,
  'contract_id', c.id, 'contract_slug', c.slug, 'contract_name', c.name,
  'can_extend_expiry', c.settings->'can_extend_expiry'`;

interface PackageJson {
  id: number;
  slug: string;
  name: string;
  message: string;
  sent_at: number;
  valid_from: number;
  expires_at: number;
  objects_deleted_at: number | null;
  bytes: number;
  num_files: number;
  pin_verify: boolean;
  invalid_filenames: boolean;
  contract_id: number;
  contract_slug: string;
  contract_name: string;
  can_extend_expiry: boolean;
}

function factsOf(row: PackageJson, sender: PackageView['sender']): PackageView {
  return {
    pkg: {
      id: row.id,
      slug: row.slug,
      name: row.name,
      message: row.message,
      sentAt: new Date(row.sent_at),
      validFrom: new Date(row.valid_from),
      expiresAt: new Date(row.expires_at),
      objectsDeletedAt: dateOf(row.objects_deleted_at),
      bytes: row.bytes,
      numFiles: row.num_files,
      pinVerify: row.pin_verify,
      invalidFilenames: row.invalid_filenames,
    },
    contract: {
      id: row.contract_id,
      slug: row.contract_slug,
      name: row.contract_name,
      settings: { can_extend_expiry: row.can_extend_expiry },
    },
    sender,
  };
}

// The contract filter names the contract by slug inside the statement (no contract of that slug:
// no packages), so the list with and without it are two statements, each with its own plan.
const inContract = (byContract: boolean) =>
  byContract
    ? sql`and p.contract_id = (select id from ${contracts} where slug = ${sql.placeholder('contractSlug')})`
    : sql``;

// The recipient-access rule's SQL reads the recipient and package under the names the
// statements give them.
const r = alias(packageRecipients, 'r');
const p = alias(packages, 'p');

// The packages the Inbox lists: the caller's, while `mayList` lets them see them.
const callersRow = recipientRowOf(r, { userId: sql.placeholder('userId') });
const receivedWhere = (byContract: boolean) =>
  sql`${callersRow} and ${mayListSql(p)} ${inContract(byContract)}`;

// Counts stop at the protocol's caps: a list needs "more" or not and a number to show, and
// counting every one of 100,000 packages on each page would cost more than the page itself.
const COUNT_CAP = sql.raw(String(listCountCap));
const UNSEEN_CAP = sql.raw(String(unseenCountCap));

/** Which page a statement reads: the first, or a later one named by its OFFSET. */
type PageKind = 'first' | 'later';
const pageKinds = ['first', 'later'] as const;
const kindOf = (offset: number): PageKind => (offset === 0 ? 'first' : 'later');

// Each statement is read from `users` by the caller's id so that it always answers one row, even
// for an empty page. Drizzle does not carry a generic selection's types through `from`, so the
// answer's type is stated here, from the columns' own.
const listStatement = <Columns extends Record<string, SQL>>(name: string, columns: Columns) =>
  preparedOnce((db): { execute(values: Record<string, unknown>): Promise<Answer<Columns>[]> } =>
    db
      .select(columns)
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare(name),
  );

/**
 * A list's statements, with and without the contract filter, for the first and the later pages;
 * answers the one for a call.
 */
function listStatements<S>(
  statement: (byContract: boolean, kind: PageKind) => (db: Database) => S,
) {
  const made = new Map(
    [false, true].flatMap((byContract) =>
      pageKinds.map((kind) => [`${byContract} ${kind}`, statement(byContract, kind)] as const),
    ),
  );
  return (db: Database, byContract: boolean, kind: PageKind) =>
    made.get(`${byContract} ${kind}`)!(db);
}

/** A list statement's answer: the value of each of its columns. */
type Answer<Columns> = { [K in keyof Columns]: Columns[K] extends SQL<infer V> ? V : never };

/** How many packages `from` (a FROM and WHERE, the package read as `p`) finds, up to `COUNT_CAP`. */
const countedUpToCap = (from: SQL) =>
  sql<number>`(select count(*)::int from (select 1 ${from} limit ${COUNT_CAP}) counted)`;

/**
 * One page (`size` packages) of those `from` finds (a FROM and WHERE that read the package as
 * `p`), newest first, as one JSON array: each row the package's columns and `more`.
 *
 * The page's keys are picked first: each package's sending time and id, and `keys` (more of
 * `from`'s columns, each named). Only the page's rows are then read again by those keys (the
 * picked row as `page`, the package as `p`, its contract as `c`, and whatever `join` adds) and
 * made JSON. PostgreSQL works out each row an OFFSET skips, select list and all: with the JSON
 * built beside the OFFSET, page 5,000 of Sent made 100,000 packages' JSON with their recipients
 * (about 2 s).
 */
const pageJson = <Row>(
  size: number,
  kind: PageKind,
  page: { keys: SQL; from: SQL; join: SQL; more: SQL },
) =>
  sql<Row[]>`(select coalesce(json_agg(json_build_object(${packageJson}, ${page.more})
      order by page.sent_at desc, page.id desc), '[]'::json)
    from (select p.sent_at, p.id ${page.keys}
      ${page.from}
      order by p.sent_at desc, p.id desc
      limit ${sql.raw(String(size))}
      ${kind === 'first' ? sql`` : sql`offset ${sql.placeholder('offset')}`}) page
    join ${packages} p on p.id = page.id
    join ${contracts} c on c.id = p.contract_id
    ${page.join})`;

const receivedListStatement = (byContract: boolean, kind: PageKind) =>
  listStatement(`received_list${byContract ? '_of_contract' : ''}_${kind}`, {
    total: countedUpToCap(sql`from ${packageRecipients} r join ${packages} p on p.id = r.package_id
      where ${receivedWhere(byContract)}`),
    unseen: sql<Array<{ slug: string; n: number }>>`(select coalesce(json_agg(json_build_object(
        'slug', c.slug, 'n', (select count(*)::int from (
          select 1 from ${packageRecipients} r join ${packages} p on p.id = r.package_id
          where r.user_id = m.user_id and p.contract_id = c.id
            and r.seen_at is null and ${mayUseSql(p, r)}
          limit ${UNSEEN_CAP}) unseen)
      )), '[]'::json)
      from ${memberships} m join ${contracts} c on c.id = m.contract_id
      where m.user_id = ${sql.placeholder('userId')})`,
    rows: pageJson<ReceivedJson>(limits.receivedPageSize, kind, {
      keys: sql`, r.id as recipient_id`,
      from: sql`from ${packageRecipients} r join ${packages} p on p.id = r.package_id
        where ${receivedWhere(byContract)}`,
      join: sql`join ${packageRecipients} r on r.id = page.recipient_id
        left join ${users} s on s.id = p.sender_id`,
      more: sql`'sender_first_name', s.first_name, 'sender_last_name', s.last_name,
        'sender_email', s.email,
        'seen_at', ${epochMs('r.seen_at')}, 'removed', r.removed, 'downloaded', r.downloaded,
        'pin_required', r.pin_required, 'pin_verified_at', ${epochMs('r.pin_verified_at')},
        'mobile', r.mobile`,
    }),
  });
const receivedLists = listStatements(receivedListStatement);

interface ReceivedJson extends PackageJson {
  sender_first_name: string | null;
  sender_last_name: string | null;
  sender_email: string | null;
  seen_at: number | null;
  removed: boolean;
  downloaded: RecipientRow['downloaded'];
  pin_required: boolean;
  pin_verified_at: number | null;
  mobile: string | null;
}

/**
 * One page (`receivedPageSize` from `offset`) of the user's received packages, newest first, how
 * many there are (counted up to `COUNT_CAP`), and their unseen packages per contract slug
 * (counted up to `UNSEEN_CAP`), in the contracts they belong to: ones they may still open (not
 * removed, not expired), which is what the Inbox badge counts. Filtered by contract, the page
 * walks the contract's packages in sending order by index.
 */
export async function receivedListOf(
  db: Database,
  userId: number,
  contractSlug: string | undefined,
  offset: number,
): Promise<{ rows: ReceivedView[]; total: number; unseen: Map<string, number> }> {
  const [answer] = await receivedLists(db, contractSlug !== undefined, kindOf(offset)).execute({
    userId,
    contractSlug,
    offset,
  });
  if (!answer) return { rows: [], total: 0, unseen: new Map() };
  return {
    rows: answer.rows.map((row) => ({
      ...factsOf(
        row,
        row.sender_email === null
          ? null
          : {
              firstName: row.sender_first_name ?? '',
              lastName: row.sender_last_name ?? '',
              email: row.sender_email,
            },
      ),
      recipient: {
        seenAt: dateOf(row.seen_at),
        pinVerifiedAt: dateOf(row.pin_verified_at),
        removed: row.removed,
        downloaded: row.downloaded,
        pinRequired: row.pin_required,
        mobile: row.mobile,
      },
    })),
    total: answer.total,
    unseen: new Map(answer.unseen.filter((u) => u.n > 0).map((u) => [u.slug, u.n])),
  };
}

const sentWhere = (byContract: boolean) => sql`p.sender_id = ${sql.placeholder('userId')}
  and p.status <> 'uploading' ${inContract(byContract)}`;

// A recipient as the sender's list shows them, named as the package's contract knows them, with
// the downloads that moved any bytes, oldest first. Reads the package as `p`; the bare `users`
// and `memberships` are the recipient's, which the member name expressions read.
const recipientsJson = sql`(select coalesce(json_agg(json_build_object(
    'id', r.id, 'package_id', r.package_id, 'user_id', r.user_id, 'email', r.email,
    'mobile', r.mobile, 'pin_required', r.pin_required,
    'pin_verified_at', ${epochMs('r.pin_verified_at')}, 'removed', r.removed,
    'seen_at', ${epochMs('r.seen_at')}, 'downloaded', r.downloaded,
    'user_email', ${users.email}, 'first_name', ${memberFirstName}, 'last_name', ${memberLastName},
    'verified', coalesce(${memberActive}, false),
    'downloads', (select coalesce(json_agg(json_build_object(
        'first_byte_at', ${epochMs('d.first_byte_at')}, 'last_byte_at', ${epochMs('d.last_byte_at')},
        'ip', d.ip, 'bytes_sent', d.bytes_sent, 'completed', d.completed_at is not null
      ) order by d.first_byte_at, d.id), '[]'::json)
      from ${downloads} d where d.recipient_id = r.id and d.first_byte_at is not null)
  ) order by r.id), '[]'::json)
  from ${packageRecipients} r
  left join ${users} on ${users.id} = r.user_id
  left join ${memberships} on ${memberships.contractId} = p.contract_id
    and ${memberships.userId} = ${users.id}
  where r.package_id = p.id)`;

const sentListStatement = (byContract: boolean, kind: PageKind) =>
  listStatement(`sent_list${byContract ? '_of_contract' : ''}_${kind}`, {
    total: countedUpToCap(sql`from ${packages} p where ${sentWhere(byContract)}`),
    rows: pageJson<SentJson>(limits.sentPageSize, kind, {
      keys: sql``,
      from: sql`from ${packages} p where ${sentWhere(byContract)}`,
      join: sql``,
      more: sql`'recipients', ${recipientsJson}`,
    }),
  });
const sentLists = listStatements(sentListStatement);

interface SentJson extends PackageJson {
  recipients: Array<{
    id: number;
    package_id: number;
    user_id: number | null;
    email: string;
    mobile: string | null;
    pin_required: boolean;
    pin_verified_at: number | null;
    removed: boolean;
    seen_at: number | null;
    downloaded: RecipientRow['downloaded'];
    user_email: string | null;
    first_name: string | null;
    last_name: string | null;
    verified: boolean;
    downloads: Array<{
      first_byte_at: number;
      last_byte_at: number | null;
      ip: string;
      bytes_sent: number;
      completed: boolean;
    }>;
  }>;
}

/** A sent package of the list with its named recipients and their download histories. */
export interface SentListRow extends PackageView {
  recipients: NamedRecipient[];
  downloads: Map<number, RecipientDownload[]>;
}

/**
 * One page (`sentPageSize` from `offset`) of the caller's sent packages (never one still
 * uploading), newest first, with their recipients and downloads, and how many there are (counted
 * up to `COUNT_CAP`). The caller is the sender of each, so `sender` is the caller's own account.
 */
export async function sentListOf(
  db: Database,
  sender: UserRow,
  contractSlug: string | undefined,
  offset: number,
): Promise<{ rows: SentListRow[]; total: number }> {
  const [answer] = await sentLists(db, contractSlug !== undefined, kindOf(offset)).execute({
    userId: sender.id,
    contractSlug,
    offset,
  });
  if (!answer) return { rows: [], total: 0 };
  const rows = answer.rows.map((row): SentListRow => {
    const downloadsOf = new Map<number, RecipientDownload[]>();
    const recipients = row.recipients.map((r): NamedRecipient => {
      downloadsOf.set(
        r.id,
        r.downloads.map((d) =>
          recipientDownload({
            firstByteAt: new Date(d.first_byte_at),
            lastByteAt: dateOf(d.last_byte_at),
            ip: d.ip,
            bytesSent: d.bytes_sent,
            completed: d.completed,
          }),
        ),
      );
      return {
        recipient: {
          id: r.id,
          packageId: r.package_id,
          userId: r.user_id,
          email: r.email,
          mobile: r.mobile,
          pinRequired: r.pin_required,
          pinVerifiedAt: dateOf(r.pin_verified_at),
          removed: r.removed,
          seenAt: dateOf(r.seen_at),
          downloaded: r.downloaded,
        },
        email: r.user_email,
        firstName: r.first_name ?? '',
        lastName: r.last_name ?? '',
        verified: r.verified,
      };
    });
    return { ...factsOf(row, sender), recipients, downloads: downloadsOf };
  });
  return { rows, total: answer.total };
}
