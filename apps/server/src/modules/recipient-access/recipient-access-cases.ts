import { eq } from 'drizzle-orm';
import type { ContractFixture, TestServer } from '../../../test/harness';
import { packageRecipients, packages, type PackageStatus } from '../../db/schema';
import { newToken, tokenHash } from '../../http/secrets';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import {
  mayAskPin,
  mayDownload,
  mayList,
  maySeeFiles,
  mayUse,
  needsPin,
  pinLockedOut,
  type Access,
  type Refusal,
} from './recipient-access';
import type { RecipientAccess } from './recipient-access.repository';
import type { RecipientOf } from './recipient-access.sql';

// Test support: the table of recipient-access cases that recipient-access.test.ts runs through
// the rule and its SQL twin, and recipient-access.routes.test.ts through every route using it.

const HOUR = 3_600_000;
const MOBILE = '+447700900123';

/**
 * Who calls: the contract's receiver (signed in; their row also has a link key), an ad-hoc
 * recipient by their link key (no account), a user of another contract, the package's sender,
 * or the holder of another package's key.
 */
export type CallerKind = 'receiver' | 'adHoc' | 'otherTenant' | 'sender' | 'otherKey';

/** The rule's answers for a case. */
export interface Answers {
  mayList: Access;
  maySeeFiles: Access;
  mayUse: Access;
  mayAskPin: Access;
  mayDownload: Access;
  /** Only where the caller has a recipient row. */
  needsPin?: boolean;
  pinLockedOut?: boolean;
}

export interface AccessCase {
  title: string;
  caller: CallerKind;
  pkg?: {
    status?: PackageStatus;
    validInHours?: number;
    expiresInHours?: number;
    objectsDeleted?: boolean;
  };
  recipient?: 'removed' | 'needsPin' | 'pinProven' | 'pinLockedOut';
  expected: Answers;
}

/** The rule's answers for a loaded row (null: the caller has none). */
export function answersOf(row: RecipientAccess | null, now: Date): Answers {
  return {
    mayList: mayList(row, now),
    maySeeFiles: maySeeFiles(row, now),
    mayUse: mayUse(row, now),
    mayAskPin: mayAskPin(row, now),
    mayDownload: mayDownload(row, now),
    ...(row
      ? { needsPin: needsPin(row.recipient), pinLockedOut: pinLockedOut(row.recipient, now) }
      : {}),
  };
}

const all = (answer: Refusal): Answers => ({
  mayList: answer,
  maySeeFiles: answer,
  mayUse: answer,
  mayAskPin: answer,
  mayDownload: answer,
});
/** Not yet sent to the recipient, whose row is there all the same. */
const hidden = { ...all('not_found'), needsPin: false, pinLockedOut: false } as const;
const open = { mayList: 'ok', maySeeFiles: 'ok', mayUse: 'ok' } as const;
const removed = { ...all('removed'), mayList: 'ok', needsPin: false, pinLockedOut: false } as const;
/** Open, and no PIN to ask for: everything may be done. */
const openNoPin = {
  ...open,
  mayAskPin: 'pin_not_required',
  mayDownload: 'ok',
  needsPin: false,
  pinLockedOut: false,
} as const;
/** A PIN package whose PIN is not proven yet: listed and open, not yet downloadable. */
const pinToProve = {
  ...open,
  mayAskPin: 'ok',
  mayDownload: 'needs_pin',
  needsPin: true,
  pinLockedOut: false,
} as const;
const expired = {
  ...open,
  mayUse: 'expired',
  mayAskPin: 'expired',
  mayDownload: 'expired',
  pinLockedOut: false,
} as const;

/** The table: each case on a package of its own, so no row's change decides another's answer. */
export const accessCases: AccessCase[] = [
  {
    title: 'the recipient, open package',
    caller: 'receiver',
    expected: openNoPin,
  },
  {
    title: 'expired package',
    caller: 'receiver',
    pkg: { expiresInHours: -1 },
    expected: { ...expired, needsPin: false },
  },
  {
    title: 'package whose objects were swept',
    caller: 'receiver',
    pkg: { objectsDeleted: true },
    expected: { ...expired, needsPin: false },
  },
  { title: 'removed recipient', caller: 'receiver', recipient: 'removed', expected: removed },
  {
    title: 'removed recipient, expired package',
    caller: 'receiver',
    recipient: 'removed',
    pkg: { expiresInHours: -1 },
    expected: removed,
  },
  {
    title: 'package still uploading',
    caller: 'receiver',
    pkg: { status: 'uploading' },
    expected: hidden,
  },
  {
    title: 'before its access period',
    caller: 'receiver',
    pkg: { validInHours: 1 },
    expected: hidden,
  },
  {
    title: 'PIN package, PIN not proven',
    caller: 'receiver',
    recipient: 'needsPin',
    expected: pinToProve,
  },
  {
    title: 'PIN package, PIN proven',
    caller: 'receiver',
    recipient: 'pinProven',
    expected: { ...open, mayAskPin: 'ok', mayDownload: 'ok', needsPin: false, pinLockedOut: false },
  },
  {
    title: 'PIN package, locked out after wrong PINs',
    caller: 'receiver',
    recipient: 'pinLockedOut',
    expected: { ...pinToProve, pinLockedOut: true },
  },
  {
    title: 'PIN package, PIN not proven, expired',
    caller: 'receiver',
    recipient: 'needsPin',
    pkg: { expiresInHours: -1 },
    expected: { ...expired, needsPin: true },
  },
  { title: 'a user of another tenant', caller: 'otherTenant', expected: all('not_found') },
  { title: 'the sender', caller: 'sender', expected: all('not_found') },
  {
    title: 'ad-hoc recipient by key',
    caller: 'adHoc',
    expected: openNoPin,
  },
  {
    title: 'ad-hoc recipient by key, PIN not proven',
    caller: 'adHoc',
    recipient: 'needsPin',
    expected: pinToProve,
  },
  {
    title: 'ad-hoc recipient by key, removed',
    caller: 'adHoc',
    recipient: 'removed',
    expected: removed,
  },
  {
    title: 'ad-hoc recipient by key, expired',
    caller: 'adHoc',
    pkg: { expiresInHours: -1 },
    expected: { ...expired, needsPin: false },
  },
  { title: "another package's key", caller: 'otherKey', expected: all('not_found') },
];

const recipientFields = {
  removed: { removed: true },
  needsPin: { pinRequired: true, mobile: MOBILE },
  pinProven: { pinRequired: true, mobile: MOBILE, pinVerifiedAt: new Date(Date.now() - HOUR) },
  pinLockedOut: {
    pinRequired: true,
    mobile: MOBILE,
    pinLockedUntil: new Date(Date.now() + HOUR),
  },
} satisfies Record<string, Partial<typeof packageRecipients.$inferInsert>>;

/** A case made real: its package, and how its caller is known (a user, or a link key). */
export interface MadeCase {
  slug: string;
  packageId: number;
  /** The caller's recipient row, when they have one. */
  recipientId: number | null;
  /** The signed-in caller's headers, when the caller is a user. */
  headers: Record<string, string> | null;
  /** The link key the caller holds, when they hold one. */
  key: string | null;
  /** Every way the caller is known, as the lookup takes it. */
  who: RecipientOf[];
}

/** Makes a case's package (one file) and recipient rows. */
export async function makeCase(
  server: TestServer,
  fx: ContractFixture,
  c: AccessCase,
): Promise<MadeCase> {
  const { db } = server.ctx;
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    status: c.pkg?.status ?? 'complete',
    expiresInHours: c.pkg?.expiresInHours ?? 12,
  });
  if (c.pkg?.validInHours !== undefined || c.pkg?.objectsDeleted) {
    await db
      .update(packages)
      .set({
        ...(c.pkg.validInHours !== undefined
          ? { validFrom: new Date(Date.now() + c.pkg.validInHours * HOUR) }
          : {}),
        ...(c.pkg.objectsDeleted ? { objectsDeletedAt: new Date() } : {}),
      })
      .where(eq(packages.id, pkg.id));
  }
  const fields = c.recipient ? recipientFields[c.recipient] : {};
  const key = newToken();
  // The contract's receiver is a recipient of every case's package; the ad-hoc recipient only
  // where the case is about them.
  const member = await addRecipient(server, pkg.id, fx.receiver.user, {
    keyHash: tokenHash(key),
    ...(c.caller === 'receiver' ? fields : {}),
  });
  const made = { slug: pkg.slug, packageId: pkg.id };
  switch (c.caller) {
    case 'receiver':
      return {
        ...made,
        recipientId: member.id,
        headers: fx.receiver.headers,
        key,
        who: [{ userId: fx.receiver.user.id }, { keyHash: tokenHash(key) }],
      };
    case 'adHoc': {
      const adHocKey = newToken();
      const [row] = await db
        .insert(packageRecipients)
        .values({
          packageId: pkg.id,
          email: `ad-hoc.${pkg.id}@example.com`,
          keyHash: tokenHash(adHocKey),
          ...fields,
        })
        .returning();
      return {
        ...made,
        recipientId: row!.id,
        headers: null,
        key: adHocKey,
        who: [{ keyHash: tokenHash(adHocKey) }],
      };
    }
    case 'otherTenant':
    case 'sender': {
      const user = c.caller === 'sender' ? fx.sender : fx.outsider;
      return {
        ...made,
        recipientId: null,
        headers: user.headers,
        key: null,
        who: [{ userId: user.user.id }],
      };
    }
    case 'otherKey': {
      const other = await createPackage(server, {
        contractId: fx.contract.id,
        senderId: fx.sender.user.id,
        files: 'none',
      });
      const otherKey = newToken();
      await addRecipient(server, other.pkg.id, fx.receiver.user, { keyHash: tokenHash(otherKey) });
      return {
        ...made,
        recipientId: null,
        headers: null,
        key: otherKey,
        who: [{ keyHash: tokenHash(otherKey) }],
      };
    }
  }
}
