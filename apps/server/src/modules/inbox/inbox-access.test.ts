import { describe, expect, it } from 'vitest';
import { inboxMessages } from '@filerunner/protocol';
import {
  contractMember,
  groupOfSenderAndReceiver,
  setContractSettings,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { newToken, tokenHash } from '../../http/secrets';
import { insertGroup } from '../contracts/groups.repository';
import { addRecipient, createPackage } from '../downloads/download-fixtures';

// The access matrix of the receive calls: every kind of caller against every call, each on a
// package of its own, so one row's change never decides another's answer.

let server: TestServer;
let fx: ContractFixture;
let otherGroup: { user: { id: number; email: string }; headers: Record<string, string> };

useFixtureServer(async (t) => {
  ({ server, fx } = t);
  await setContractSettings(server, fx.contract.id, { can_extend_expiry: true });
  // The sender and receiver share a group; this receive-only member is in another one.
  otherGroup = await contractMember(server, fx.contract.id, {});
  await groupOfSenderAndReceiver(server, fx, 'Editors');
  await insertGroup(server.ctx.db, fx.contract.id, {
    name: 'Clients',
    members: [otherGroup.user.id],
  });
});

type PackageState = 'open' | 'expired' | 'locked' | 'removed';

/** A one-file package from the sender to the receiver, expiring in 12 hours unless expired. */
async function packageIn(state: PackageState) {
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    expiresInHours: state === 'expired' ? -1 : 12,
  });
  const key = newToken();
  await addRecipient(server, pkg.id, fx.receiver.user, {
    keyHash: tokenHash(key),
    removed: state === 'removed',
    ...(state === 'locked' ? { pinRequired: true, mobile: '+447700900123' } : {}),
  });
  return { slug: pkg.slug, key };
}

type CallName =
  | 'received'
  | 'receivedFiles'
  | 'markSeen'
  | 'extend'
  | 'grant'
  | 'sent'
  | 'sentFiles'
  | 'add'
  | 'remove'
  | 'update';

const calls: Record<
  CallName,
  (slug: string) => { method: 'GET' | 'POST'; url: string; body?: object }
> = {
  received: (s) => ({ method: 'GET', url: `/api/packages/received/${s}/` }),
  receivedFiles: (s) => ({ method: 'GET', url: `/api/packages/received/${s}/files/` }),
  markSeen: (s) => ({ method: 'POST', url: `/api/packages/${s}/mark_seen/` }),
  extend: (s) => ({ method: 'POST', url: `/api/packages/${s}/extend-expiry/` }),
  grant: (s) => ({ method: 'GET', url: `/api/packages/${s}/download/` }),
  sent: (s) => ({ method: 'GET', url: `/api/packages/sent/${s}/` }),
  sentFiles: (s) => ({ method: 'GET', url: `/api/packages/sent/${s}/files/` }),
  add: (s) => ({
    method: 'POST',
    url: `/api/packages/sent/${s}/add_recipients/`,
    body: { recipients: [{ user: fx.admin.user.id }] },
  }),
  remove: (s) => ({
    method: 'POST',
    url: `/api/packages/sent/${s}/remove_recipient/${fx.receiver.user.id}/`,
  }),
  update: (s) => ({
    method: 'POST',
    url: `/api/packages/sent/${s}/update_recipient/${fx.receiver.user.id}/`,
    body: { mobile: '+447911123456' },
  }),
};

type Caller = 'nobody' | 'outsider' | 'otherGroup' | 'receiver' | 'sender';
const headersOf = (who: Caller): Record<string, string> =>
  who === 'nobody'
    ? { 'x-client-version': 'test' }
    : who === 'otherGroup'
      ? otherGroup.headers
      : fx[who].headers;

// Who calls, on which package, and what each call answers (status codes).
const matrix: [string, Caller, PackageState, Record<CallName, number>][] = [
  // prettier-ignore
  ['anonymous', 'nobody', 'open', { received: 401, receivedFiles: 401, markSeen: 401, extend: 401, grant: 401, sent: 401, sentFiles: 401, add: 401, remove: 401, update: 401 }],
  // prettier-ignore
  ["another contract's user", 'outsider', 'open', { received: 404, receivedFiles: 404, markSeen: 404, extend: 404, grant: 404, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['receive-only user of another group', 'otherGroup', 'open', { received: 404, receivedFiles: 404, markSeen: 404, extend: 404, grant: 404, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['removed recipient', 'receiver', 'removed', { received: 200, receivedFiles: 403, markSeen: 200, extend: 403, grant: 403, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['recipient, expired package', 'receiver', 'expired', { received: 200, receivedFiles: 200, markSeen: 200, extend: 410, grant: 410, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['recipient, PIN not proved', 'receiver', 'locked', { received: 200, receivedFiles: 200, markSeen: 200, extend: 200, grant: 403, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['recipient', 'receiver', 'open', { received: 200, receivedFiles: 200, markSeen: 200, extend: 200, grant: 200, sent: 404, sentFiles: 404, add: 404, remove: 404, update: 404 }],
  // prettier-ignore
  ['sender', 'sender', 'open', { received: 404, receivedFiles: 404, markSeen: 404, extend: 404, grant: 404, sent: 200, sentFiles: 200, add: 200, remove: 200, update: 200 }],
  // prettier-ignore
  ['sender, expired package', 'sender', 'expired', { received: 404, receivedFiles: 404, markSeen: 404, extend: 404, grant: 404, sent: 200, sentFiles: 200, add: 410, remove: 200, update: 410 }],
  // prettier-ignore
  ['sender, recipient removed', 'sender', 'removed', { received: 404, receivedFiles: 404, markSeen: 404, extend: 404, grant: 404, sent: 200, sentFiles: 200, add: 200, remove: 200, update: 400 }],
];

describe('access matrix of the signed-in calls', () => {
  for (const [title, who, state, answers] of matrix) {
    it(`${title}: ${Object.entries(answers)
      .map(([call, status]) => `${call} ${status}`)
      .join(', ')}`, async () => {
      const got: Record<string, number> = {};
      for (const name of Object.keys(answers) as CallName[]) {
        const { slug } = await packageIn(state);
        const call = calls[name](slug);
        const response = await server.app.inject({
          method: call.method,
          url: call.url,
          headers: headersOf(who),
          ...(call.body ? { payload: call.body } : {}),
        });
        got[name] = response.statusCode;
      }
      expect(got).toEqual(answers);
    });
  }
});

type KeyCase = 'right' | 'wrong' | 'missing' | "another package's";
type ExternalCall = 'page' | 'packageGrant' | 'fileGrant';
const externalUrl: Record<ExternalCall, (slug: string) => string> = {
  page: (s) => `/api/packages/received/${s}/files_external/`,
  packageGrant: (s) => `/api/packages/external/${s}/download/`,
  fileGrant: (s) => `/api/packages/external/${s}/download/only.bin/`,
};

const externalMatrix: [KeyCase, PackageState, Record<ExternalCall, number>][] = [
  ['right', 'open', { page: 200, packageGrant: 200, fileGrant: 200 }],
  ['wrong', 'open', { page: 404, packageGrant: 404, fileGrant: 404 }],
  ['missing', 'open', { page: 400, packageGrant: 400, fileGrant: 400 }],
  ["another package's", 'open', { page: 404, packageGrant: 404, fileGrant: 404 }],
  ['right', 'removed', { page: 403, packageGrant: 403, fileGrant: 403 }],
  ['right', 'expired', { page: 200, packageGrant: 410, fileGrant: 410 }],
  ['right', 'locked', { page: 200, packageGrant: 403, fileGrant: 403 }],
];

describe('access matrix of the external calls (by link key, no session)', () => {
  for (const [keyCase, state, answers] of externalMatrix) {
    it(`${keyCase} key, ${state} package: ${JSON.stringify(answers)}`, async () => {
      const got: Record<string, number> = {};
      for (const name of Object.keys(answers) as ExternalCall[]) {
        const { slug, key } = await packageIn(state);
        const other = await packageIn('open');
        const query: Record<string, string> =
          keyCase === 'right'
            ? { key }
            : keyCase === 'wrong'
              ? { key: newToken() }
              : keyCase === 'missing'
                ? {}
                : { key: other.key };
        const response = await server.app.inject({
          method: 'GET',
          url: externalUrl[name](slug),
          query,
        });
        got[name] = response.statusCode;
      }
      expect(got).toEqual(answers);
    });
  }

  it('answers the package page in the words and shape the external page reads', async () => {
    const { slug, key } = await packageIn('locked');
    const page = await server.app.inject({
      method: 'GET',
      url: externalUrl.page(slug),
      query: { key },
    });
    expect(page.json()).toMatchObject({
      slug,
      sender: { name: 'Test User' },
      contract: { name: fx.contract.name },
      locked: true,
      mobile_hint: '123',
      files: [],
      total_files: 1,
    });
    expect(typeof page.json().expires_date).toBe('number');
    const removed = await packageIn('removed');
    const refused = await server.app.inject({
      method: 'GET',
      url: externalUrl.page(removed.slug),
      query: { key: removed.key },
    });
    expect(refused.json()).toEqual({ detail: inboxMessages.removed });
  });
});
