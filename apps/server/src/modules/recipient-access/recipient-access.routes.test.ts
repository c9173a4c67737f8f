import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ReceivedPage } from '@filerunner/protocol';
import {
  BASE_HEADERS,
  setContractSettings,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packages } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { insertGrant, storedFiles } from '../downloads/downloads.repository';
import { packageTar } from '../downloads/package-bytes';
import { mhlHostname } from '../mhl/package-mhl';
import type { Access } from './recipient-access';
import {
  accessCases,
  answersOf,
  type AccessCase,
  makeCase,
  type Answers,
  type MadeCase,
} from './recipient-access-cases';
import { findRecipientAccess } from './recipient-access.repository';

// The table of recipient-access cases through every route that asks the rule: each route's
// answer is the one its existing mapping gives for the rule's answer (statuses unchanged), for
// the signed-in caller and for the holder of the link key alike.

let server: TestServer;
let fx: ContractFixture;

useFixtureServer(async (t) => {
  ({ server, fx } = t);
  // So that extending the expiry answers for the rule alone (the cases' packages end in 12 hours,
  // within the last day the extension is offered in).
  await setContractSettings(server, fx.contract.id, { can_extend_expiry: true });
});

type Response = Awaited<ReturnType<TestServer['app']['inject']>>;

/**
 * The status every route answers each of the rule's answers with (only the PIN calls can meet
 * `pin_not_required`: the other predicates never answer it).
 */
const statusOf: Record<Access, number> = {
  ok: 200,
  not_found: 404,
  removed: 403,
  expired: 410,
  needs_pin: 403,
  pin_not_required: 409,
};
/** A PIN call the rule allows is still refused while the PIN is locked out. */
const pinStatus = (answers: Answers, allowed: number) =>
  answers.mayAskPin !== 'ok' ? statusOf[answers.mayAskPin] : answers.pinLockedOut ? 429 : allowed;

/** A route that asks the rule: how the caller reaches it, and what it answers for the rule's answers. */
interface RouteCase {
  name: string;
  by: 'user' | 'key' | 'grant';
  expected(answers: Answers, caller: AccessCase['caller']): number;
  call(made: MadeCase): Promise<Response>;
  /** More to check of an allowed answer. */
  also?(response: Response, answers: Answers): void;
}

const get = (url: string, headers: Record<string, string> | null, query?: Record<string, string>) =>
  server.app.inject({
    method: 'GET',
    url,
    headers: headers ?? BASE_HEADERS,
    ...(query ? { query } : {}),
  });
const post = (url: string, headers: Record<string, string> | null, payload: object = {}) =>
  server.app.inject({ method: 'POST', url, headers: headers ?? BASE_HEADERS, payload });

/** A files page says `locked` exactly when the rule says a PIN is due, and then names no file. */
const lockedAsNeedsPin = (response: Response, answers: Answers) => {
  const page = response.json() as { locked: boolean; files: unknown[]; total_files: number };
  expect(page.locked).toBe(answers.needsPin);
  expect(page.files).toHaveLength(answers.needsPin ? 0 : 1);
  expect(page.total_files).toBe(1);
};

// A code no case's pending PIN is likely to be (one in a million).
const WRONG_PIN = '000000';

const routes: RouteCase[] = [
  {
    name: 'Inbox list',
    by: 'user',
    expected: (a) => statusOf[a.mayList],
    // Answered as 200 when the list shows the package and 404 when not, as its page would be.
    call: async (made) => {
      const response = await get('/api/packages/received/', made.headers, {
        contract_slug: fx.contract.slug,
      });
      const listed = (response.json() as ReceivedPage).packages.some((p) => p.slug === made.slug);
      return { ...response, statusCode: listed ? 200 : 404 } as Response;
    },
  },
  {
    name: 'Inbox detail',
    by: 'user',
    expected: (a) => statusOf[a.mayList],
    call: (m) => get(`/api/packages/received/${m.slug}/`, m.headers),
    also: (response, a) => expect(response.json().locked).toBe(a.needsPin),
  },
  {
    name: 'mark seen',
    by: 'user',
    expected: (a) => statusOf[a.mayList],
    call: (m) => post(`/api/packages/${m.slug}/mark_seen/`, m.headers),
  },
  {
    name: 'Inbox files',
    by: 'user',
    expected: (a) => statusOf[a.maySeeFiles],
    call: (m) => get(`/api/packages/received/${m.slug}/files/`, m.headers),
    also: lockedAsNeedsPin,
  },
  {
    name: 'package grant',
    by: 'user',
    expected: (a) => statusOf[a.mayDownload],
    call: (m) => get(`/api/packages/${m.slug}/download/`, m.headers),
  },
  {
    name: 'file grant',
    by: 'user',
    expected: (a) => statusOf[a.mayDownload],
    call: (m) => get(`/api/packages/${m.slug}/download/only.bin`, m.headers),
  },
  {
    name: 'package MHL',
    by: 'user',
    // Its sender reads it too (the rule is the recipients'), as they read the Sent detail.
    expected: (a, caller) => (caller === 'sender' ? 200 : statusOf[a.mayDownload]),
    call: (m) => get(`/api/packages/${m.slug}/mhl/`, m.headers),
  },
  {
    name: 'PIN ask',
    by: 'user',
    expected: (a) => pinStatus(a, 200),
    call: (m) => post(`/api/packages/${m.slug}/pin_verify/`, m.headers),
  },
  {
    name: 'PIN verify',
    by: 'user',
    expected: (a) => pinStatus(a, 400),
    call: (m) => post(`/api/packages/${m.slug}/pin_verify_code/`, m.headers, { code: WRONG_PIN }),
  },
  {
    name: 'external page',
    by: 'key',
    expected: (a) => statusOf[a.maySeeFiles],
    call: (m) => get(`/api/packages/received/${m.slug}/files_external/`, null, { key: m.key! }),
    also: lockedAsNeedsPin,
  },
  {
    name: 'external package grant',
    by: 'key',
    expected: (a) => statusOf[a.mayDownload],
    call: (m) => get(`/api/packages/external/${m.slug}/download/`, null, { key: m.key! }),
  },
  {
    name: 'external file grant',
    by: 'key',
    expected: (a) => statusOf[a.mayDownload],
    call: (m) => get(`/api/packages/external/${m.slug}/download/only.bin/`, null, { key: m.key! }),
  },
  {
    name: 'external package MHL',
    by: 'key',
    expected: (a) => statusOf[a.mayDownload],
    call: (m) => get(`/api/packages/external/${m.slug}/mhl/`, null, { key: m.key! }),
  },
  {
    name: 'PIN ask by key',
    by: 'key',
    expected: (a) => pinStatus(a, 200),
    call: (m) => post(`/api/packages/${m.slug}/pin_verify_external/`, null, { key: m.key }),
  },
  {
    name: 'PIN verify by key',
    by: 'key',
    expected: (a) => pinStatus(a, 400),
    call: (m) =>
      post(`/api/packages/${m.slug}/pin_verify_code_external/`, null, {
        key: m.key,
        code: WRONG_PIN,
      }),
  },
  {
    // A download URL already handed out asks the rule again on every request.
    name: 'tar by download URL',
    by: 'grant',
    expected: (a) => statusOf[a.mayDownload],
    call: async (m) => get(`/api/downloads/${await grantFor(m)}/package.tar`, null),
  },
  {
    // Last: it moves the package's end.
    name: 'extend expiry',
    by: 'user',
    expected: (a) => statusOf[a.mayUse],
    call: (m) => post(`/api/packages/${m.slug}/extend-expiry/`, m.headers),
  },
];

/** A download URL's token for the case's recipient, as a grant made earlier would have left. */
async function grantFor(made: MadeCase): Promise<string> {
  const { db } = server.ctx;
  const [pkg] = await db.select().from(packages).where(eq(packages.id, made.packageId));
  const token = newToken();
  await insertGrant(db, {
    tokenHash: tokenHash(token),
    packageId: made.packageId,
    recipientId: made.recipientId!,
    fileId: null,
    size: (
      await packageTar(
        pkg!,
        await storedFiles(db, made.packageId),
        mhlHostname(server.ctx.config.publicUrl),
      )
    ).layout.size,
    ip: '203.0.113.9',
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

/** The rule's answers for the caller's row, as the routes load it. */
async function ruleAnswers(made: MadeCase): Promise<Answers> {
  const row = await findRecipientAccess(server.ctx.db, made.slug, made.who[0]!);
  return answersOf(row, new Date());
}

const reaches = (route: RouteCase, made: MadeCase) =>
  route.by === 'user'
    ? made.headers !== null
    : route.by === 'key'
      ? made.key !== null
      : made.recipientId !== null;

describe('every route that asks the recipient-access rule answers as the rule does', () => {
  for (const c of accessCases) {
    it(c.title, async () => {
      const made = await makeCase(server, fx, c);
      const answers = await ruleAnswers(made);
      expect(answers).toEqual(c.expected);
      const want: Record<string, number> = {};
      const got: Record<string, number> = {};
      for (const route of routes.filter((r) => reaches(r, made))) {
        want[route.name] = route.expected(answers, c.caller);
        const response = await route.call(made);
        got[route.name] = response.statusCode;
        if (response.statusCode === 200 && want[route.name] === 200)
          route.also?.(response, answers);
      }
      expect(got).toEqual(want);
    });
  }
});
