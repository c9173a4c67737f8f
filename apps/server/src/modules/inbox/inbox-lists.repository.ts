import { eq, sql, type SQL } from 'drizzle-orm';
import { limits, listCountCap, unseenCountCap } from '@filerunner/protocol';
import { preparedOnce, type Database } from '../../db/client';
import type { UserRow } from '../../db/rows';
import { contracts, memberships, packageRecipients, packages, users } from '../../db/schema';
import { mayListSql, mayUseSql, recipientRowOf } from '../recipient-access/recipient-access.sql';
import {
  p,
  r,
  receivedColumns,
  sentColumns,
  type ReceivedView,
  type SentView,
} from './inbox.columns';
import { described, type JsonRow } from './list-columns';

// The Inbox and Sent lists, each one prepared statement: the page, its count and (Inbox) the
// badge's unseen counts come in one round trip, with only the columns the answer shows.
//
// PostgreSQL plans a prepared statement afresh on each run until its plan for any values (the
// generic one) looks no worse than those. A LIMIT or OFFSET it cannot see counts as a tenth of
// the table there, so it never settles, and planning these statements cost as much as running
// them (about a millisecond). So the caps and the page size are written into the statements,
// and the first page, which nearly every call asks for, is a statement without an OFFSET: after
// a few runs it is planned once per connection. Later pages keep their OFFSET as a parameter.

// The contract filter names the contract by slug inside the statement (no contract of that slug:
// no packages), so the list with and without it are two statements, each with its own plan.
const inContract = (byContract: boolean) =>
  byContract
    ? sql`and p.contract_id = (select id from ${contracts} where slug = ${sql.placeholder('contractSlug')})`
    : sql``;

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
 * `p`), newest first, as one JSON array: each row `object`, a list's columns.
 *
 * The page's keys are picked first: each package's sending time and id, and `keys` (more of
 * `from`'s columns, each named). Only the page's rows are then read again by those keys (the
 * picked row as `page`, the package as `p`, its contract as `c`, and whatever `join` adds) and
 * made JSON. PostgreSQL works out each row an OFFSET skips, select list and all: with the JSON
 * built beside the OFFSET, page 5,000 of Sent made 100,000 packages' JSON with their recipients
 * (about 2 s).
 */
const pageJson = (
  size: number,
  kind: PageKind,
  page: { keys: SQL; from: SQL; join: SQL; object: SQL },
) =>
  sql<JsonRow[]>`(select coalesce(json_agg(${page.object}
      order by page.sent_at desc, page.id desc), '[]'::json)
    from (select p.sent_at, p.id ${page.keys}
      ${page.from}
      order by p.sent_at desc, p.id desc
      limit ${sql.raw(String(size))}
      ${kind === 'first' ? sql`` : sql`offset ${sql.placeholder('offset')}`}) page
    join ${packages} p on p.id = page.id
    join ${contracts} c on c.id = p.contract_id
    ${page.join})`;

const received = described(receivedColumns);

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
    rows: pageJson(limits.receivedPageSize, kind, {
      keys: sql`, r.id as recipient_id`,
      from: sql`from ${packageRecipients} r join ${packages} p on p.id = r.package_id
        where ${receivedWhere(byContract)}`,
      join: sql`join ${packageRecipients} r on r.id = page.recipient_id
        left join ${users} s on s.id = p.sender_id`,
      object: received.object,
    }),
  });
const receivedLists = listStatements(receivedListStatement);

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
    rows: answer.rows.map(received.read),
    total: answer.total,
    unseen: new Map(answer.unseen.filter((u) => u.n > 0).map((u) => [u.slug, u.n])),
  };
}

const sentWhere = (byContract: boolean) => sql`p.sender_id = ${sql.placeholder('userId')}
  and p.status <> 'uploading' ${inContract(byContract)}`;

const sent = described(sentColumns);

const sentListStatement = (byContract: boolean, kind: PageKind) =>
  listStatement(`sent_list${byContract ? '_of_contract' : ''}_${kind}`, {
    total: countedUpToCap(sql`from ${packages} p where ${sentWhere(byContract)}`),
    rows: pageJson(limits.sentPageSize, kind, {
      keys: sql``,
      from: sql`from ${packages} p where ${sentWhere(byContract)}`,
      join: sql``,
      object: sent.object,
    }),
  });
const sentLists = listStatements(sentListStatement);

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
): Promise<{ rows: SentView[]; total: number }> {
  const [answer] = await sentLists(db, contractSlug !== undefined, kindOf(offset)).execute({
    userId: sender.id,
    contractSlug,
    offset,
  });
  if (!answer) return { rows: [], total: 0 };
  // The caller is the sender of each: their own account, added rather than selected.
  const rows = answer.rows.map((row): SentView => Object.assign(sent.read(row), { sender }));
  return { rows, total: answer.total };
}
