import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  contractFixture,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packageRecipients, packages } from '../../db/schema';
import { receivedListOf } from '../inbox/inbox-lists.repository';
import { isExpired, mayList, mayUse } from './recipient-access';
import { accessCases, answersOf, makeCase } from './recipient-access-cases';
import { findRecipientAccess } from './recipient-access.repository';
import {
  isExpiredSql,
  mayListSql,
  mayUseSql,
  pinLockedOutSql,
  recipientRowOf,
  type RecipientOf,
} from './recipient-access.sql';

// The recipient-access rule on the table of cases: the pure predicates answer as the table
// says, and the SQL twin answers the same on the same rows of the test run's PostgreSQL.

let server: TestServer;
let fx: ContractFixture;

useFixtureServer((t) => ({ server, fx } = t));

/** What the SQL twin answers for the caller's row of the package, or null when it finds none. */
async function sqlAnswers(slug: string, who: RecipientOf, now: Date) {
  const [row] = await server.ctx.db
    .select({
      listed: mayListSql(packages, now),
      usable: mayUseSql(packages, packageRecipients, now),
      expired: isExpiredSql(packages, now),
      lockedOut: pinLockedOutSql(packageRecipients, now),
    })
    .from(packageRecipients)
    .innerJoin(packages, eq(packages.id, packageRecipients.packageId))
    .where(and(eq(packages.slug, slug), recipientRowOf(packageRecipients, who)));
  return row ?? null;
}

describe('the recipient-access rule and its SQL twin', () => {
  for (const c of accessCases) {
    it(`${c.title}: ${JSON.stringify(c.expected)}`, async () => {
      const made = await makeCase(server, fx, c);
      for (const who of made.who) {
        const row = await findRecipientAccess(server.ctx.db, made.slug, who);
        const now = new Date();
        const answers = answersOf(row, now);
        expect(answers, JSON.stringify(who)).toEqual(c.expected);

        const twin = await sqlAnswers(made.slug, who, now);
        expect(twin === null, 'the SQL finds the row the lookup finds').toBe(row === null);
        if (twin && row) {
          expect(twin).toEqual({
            listed: answers.mayList === 'ok',
            usable: answers.mayUse === 'ok',
            expired: isExpired(row.pkg, now),
            lockedOut: answers.pinLockedOut,
          });
        }
      }
    });
  }

  it('lists in the Inbox what mayList lets the caller see; its badge counts mayUse', async () => {
    // A contract of its own, so its Inbox holds only this test's packages.
    const own = await contractFixture(server);
    const made = [];
    for (const c of accessCases) made.push({ c, made: await makeCase(server, own, c) });

    const userIds = [own.receiver.user.id, own.outsider.user.id, own.sender.user.id];
    const listed = new Map<number, Set<number>>();
    const unseen = new Map<number, number>();
    for (const userId of userIds) {
      const ids = new Set<number>();
      for (let offset = 0; ;) {
        const page = await receivedListOf(server.ctx.db, userId, own.contract.slug, offset);
        for (const row of page.rows) ids.add(row.pkg.id);
        unseen.set(userId, page.unseen.get(own.contract.slug) ?? 0);
        if (page.rows.length === 0) break;
        offset += page.rows.length;
      }
      listed.set(userId, ids);
    }

    let usable = 0;
    for (const { c, made: m } of made) {
      for (const userId of userIds) {
        const row = await findRecipientAccess(server.ctx.db, m.slug, { userId });
        const now = new Date();
        expect(listed.get(userId)!.has(m.packageId), `${c.title}: listed to ${userId}`).toBe(
          mayList(row, now) === 'ok',
        );
        // Every case's package also has the receiver's row, open unless the case is theirs.
        if (mayUse(row, now) === 'ok') usable += 1;
      }
    }
    // The other key's package of the 'otherKey' case is the receiver's too, open and unseen.
    const extra = accessCases.filter((c) => c.caller === 'otherKey').length;
    expect(unseen.get(own.receiver.user.id)).toBe(usable + extra);
    expect(unseen.get(own.outsider.user.id) ?? 0).toBe(0);
  });
});
