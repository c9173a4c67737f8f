import { createHash } from 'node:crypto';
import {
  accessPeriodProblem,
  defaultFilesystemConstraints,
  normalizeMobile,
  pathProblems,
  sendMessages,
  type CreatePackageRequest,
  type RecipientUser,
} from '@filerunner/protocol';
import type { ContractRow, PackageRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/unique-violation';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { findOrInsertAccount } from '../accounts/accounts.repository';
import { contractSlugOf, storageGroupOfContract } from '../contracts/contracts.repository';
import { memberOf } from '../contracts/contracts.policy';
import { joinContract } from '../memberships/member-view';
import { contractMobileOf, membershipOf } from '../memberships/memberships.repository';
import { recipientGroupsFor } from '../recipients/recipients.service';
import { newPackageSlug, packageObjectPrefix } from './object-names';
import { assertPackageSizeAllowed, assertQuotaHolds, isQuotaRefusal } from './package-quota';
import { ensurePackageContainer } from './package-storage';
import { assertMaySend } from './packages.policy';
import {
  insertIntendedFiles,
  insertPackageUnlessSlugTaken,
  insertRecipients,
  isInContractGroup,
  packageOfIdempotencyKey,
} from './packages.repository';

interface ResolvedRecipient {
  userId: number;
  email: string;
  verified: boolean;
  mobile: string | null;
}

const refuse = (field: string, message: string) => ApiError.fields({ [field]: [message] });

/** The contract named by slug or id, if the caller is an enabled member of it. */
async function contractOfCaller(ctx: AppContext, principal: Principal, ref: string | number) {
  let slug = ref;
  if (typeof ref === 'number') {
    const found = await contractSlugOf(ctx.db, ref);
    if (found === null) throw refuse('contract', sendMessages.selectContract);
    slug = found;
  }
  return memberOf(ctx.db, principal, String(slug));
}

/**
 * An ad-hoc address becomes an external member of the contract ("Ad-hoc users are
 * registered on the contract before sending"). An address that already belongs to a member the
 * sender may not reach by the group rules is refused, so typing an email never bypasses groups.
 */
async function resolveAdHoc(
  tx: Database,
  contract: ContractRow,
  email: string,
  reachable: Map<number, RecipientUser>,
): Promise<ResolvedRecipient> {
  const account = await findOrInsertAccount(tx, { email });
  if (account.created) {
    await joinContract(tx, {
      contractId: contract.id,
      userId: account.user.id,
      newAccount: true,
      external: true,
    });
    return { userId: account.user.id, email, verified: false, mobile: null };
  }
  const existing = account.user;
  const known = reachable.get(existing.id);
  if (known) return { userId: known.id, email, verified: known.verified, mobile: known.mobile };
  const membership = await membershipOf(tx, contract.id, existing.id);
  if (membership) {
    if (
      !membership.external ||
      !membership.enabled ||
      (await isInContractGroup(tx, contract.id, existing.id))
    ) {
      throw refuse('recipients', sendMessages.recipientNotAllowed);
    }
  } else {
    await joinContract(tx, {
      contractId: contract.id,
      userId: existing.id,
      newAccount: false,
      external: true,
    });
  }
  // The contract's own mobile for them, never the account's: that may be another contract's.
  const mobile = await contractMobileOf(tx, contract.id, existing.id);
  return { userId: existing.id, email, verified: false, mobile };
}

/** A recipient as a send names it: a contract user by id, or an ad-hoc address. */
export interface RecipientEntry {
  id?: number | undefined;
  email?: string | undefined;
  mobile?: string | null | undefined;
}

/** A recipient resolved to a user of the contract, with the PIN rule applied. */
export type RecipientToAdd = ResolvedRecipient & { pinRequired: boolean };

/** The mobiles the sender typed, normalised (null where none); an invalid one is refused. */
export function recipientMobiles(entries: readonly RecipientEntry[]): (string | null)[] {
  return entries.map((r) => {
    if (!r.mobile) return null;
    const mobile = normalizeMobile(r.mobile);
    if (!mobile) throw refuse('recipients', sendMessages.invalidMobile);
    return mobile;
  });
}

/** Everyone the sender may send to in the contract by the group rules, by user id. */
export async function reachableBy(
  db: Database,
  contractId: number,
  senderId: number,
): Promise<Map<number, RecipientUser>> {
  return new Map(
    (await recipientGroupsFor(db, contractId, senderId)).flatMap((g) =>
      g.members.map((m) => [m.id, m] as const),
    ),
  );
}

/**
 * Resolves the recipients of a send (a new package, or recipients added to a sent one): users
 * the group rules let the sender reach, ad-hoc addresses only where the contract allows them
 * (registered on the contract), and a mobile for each one who must prove a PIN.
 */
export async function resolveRecipients(
  tx: Database,
  contract: ContractRow,
  reachable: Map<number, RecipientUser>,
  entries: readonly RecipientEntry[],
  mobiles: readonly (string | null)[],
  pin: { pinVerify: boolean; pinMobilesMessage: string },
): Promise<Map<number, RecipientToAdd>> {
  const settings = contract.settings;
  const resolved = new Map<number, RecipientToAdd>();
  for (const [index, entry] of entries.entries()) {
    let recipient: ResolvedRecipient;
    if (entry.id !== undefined && entry.id > 0) {
      const known = reachable.get(entry.id);
      if (!known) throw refuse('recipients', sendMessages.recipientNotAllowed);
      recipient = {
        userId: known.id,
        email: known.email,
        verified: known.verified,
        mobile: known.mobile,
      };
    } else {
      if (!entry.email) throw refuse('recipients', sendMessages.selectRecipients);
      if (!settings.can_add_ad_hoc) throw refuse('recipients', sendMessages.adHocNotAllowed);
      recipient = await resolveAdHoc(tx, contract, entry.email, reachable);
    }
    const mobile = mobiles[index] ?? recipient.mobile;
    // ALL: every recipient proves a PIN; ADHOC: only those without an activated account.
    const pinRequired =
      pin.pinVerify && (settings.pin_verification === 'all' || !recipient.verified);
    if (pinRequired && !mobile) throw refuse('recipients', pin.pinMobilesMessage);
    resolved.set(recipient.userId, { ...recipient, mobile, pinRequired });
  }
  return resolved;
}

/** The container the package's objects go to: the chosen storage location's, or the default. */
async function storageFor(
  ctx: AppContext,
  contract: ContractRow,
  groupId: number | null | undefined,
) {
  if (!groupId) return { container: await ensurePackageContainer(ctx.storage), groupId: null };
  const group = await storageGroupOfContract(ctx.db, contract.id, groupId);
  if (!group) throw refuse('storage_app_group', sendMessages.unknownStorageGroup);
  return { container: group.container, groupId: group.id };
}

/**
 * Creates a package in state 'uploading': checks the sender, recipients (group rules, ad-hoc
 * policy, PIN mobiles), access period and files, then records the intended files. Nobody is told
 * anything until the upload is finalised. Returns the new package's id.
 *
 * With an idempotency key, a create this sender already made with that key answers that package
 * instead: clients retry a create whose answer they never saw. The key stands for one request,
 * so a repeat with another request is refused (422) rather than answered with a package that is
 * not the one asked for. Two concurrent repeats both get past the first look; the unique index
 * lets one insert and fails the other, which then finds the winner's package.
 */
export async function createPackage(
  ctx: AppContext,
  principal: Principal,
  input: CreatePackageRequest,
  idempotencyKey: string | null = null,
): Promise<number> {
  if (idempotencyKey === null) return insertPackage(ctx, principal, input, null);
  const idempotency = { key: idempotencyKey, fingerprint: fingerprintOf(input) };
  const earlier = await packageOfIdempotencyKey(ctx.db, principal.user.id, idempotencyKey);
  if (earlier !== null) return sameRequest(earlier, idempotency.fingerprint);
  try {
    return await insertPackage(ctx, principal, input, idempotency);
  } catch (error) {
    // The loser of a race may also trip over the winner's ad-hoc user, so any unique index counts;
    // or, under a storage quota, find the winner's package already counted against it.
    if (!isUniqueViolation(error) && !isQuotaRefusal(error)) throw error;
    const winner = await packageOfIdempotencyKey(ctx.db, principal.user.id, idempotencyKey);
    if (winner === null) throw error;
    return sameRequest(winner, idempotency.fingerprint);
  }
}

/** The request as validated, hashed: what an idempotency key promises to repeat. */
function fingerprintOf(input: CreatePackageRequest): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/** The earlier package, when it was made from this request (or before requests were hashed). */
function sameRequest(earlier: { id: number; fingerprint: string | null }, fingerprint: string) {
  if (earlier.fingerprint !== null && earlier.fingerprint !== fingerprint) {
    throw ApiError.detail(422, 'idempotency_key_reused', sendMessages.idempotencyKeyReused);
  }
  return earlier.id;
}

async function insertPackage(
  ctx: AppContext,
  principal: Principal,
  input: CreatePackageRequest,
  idempotency: { key: string; fingerprint: string } | null,
): Promise<number> {
  const access = await contractOfCaller(ctx, principal, input.contract);
  assertMaySend(access);
  const { contract } = access;
  const settings = contract.settings;

  const period = accessPeriodProblem(input.valid_from, input.valid_to);
  if (period) throw refuse(period.field, period.message);
  assertPackageSizeAllowed(contract, input.expected_size);
  const storage = await storageFor(ctx, contract, input.storage_app_group);

  const pinVerify =
    settings.pin_verification === 'all' ||
    (settings.pin_verification === 'adhoc' && input.pin_verify);
  const invalidFilenames = input.intended_files.some(
    (f) => pathProblems(f.filename, defaultFilesystemConstraints).length > 0,
  );

  const mobiles = recipientMobiles(input.recipients);
  const reachable = await reachableBy(ctx.db, contract.id, principal.user.id);

  return ctx.db.transaction(async (tx) => {
    const resolved = await resolveRecipients(tx, contract, reachable, input.recipients, mobiles, {
      pinVerify,
      pinMobilesMessage: sendMessages.pinMobiles,
    });

    await assertQuotaHolds(tx, contract, input.expected_size);

    let inserted: PackageRow | undefined;
    for (let attempt = 0; !inserted; attempt++) {
      const slug = newPackageSlug();
      // Only a slug taken by chance is tried again; a repeated idempotency key must fail.
      inserted = await insertPackageUnlessSlugTaken(tx, {
        slug,
        contractId: contract.id,
        senderId: principal.user.id,
        name: input.name,
        message: input.message,
        validFrom: input.valid_from,
        expiresAt: input.valid_to,
        pinVerify,
        container: storage.container,
        objectPrefix: packageObjectPrefix(slug),
        storageAppGroupId: storage.groupId,
        expectedFiles: input.expected_files,
        expectedSize: input.expected_size,
        invalidFilenames,
        idempotencyKey: idempotency?.key ?? null,
        idempotencyFingerprint: idempotency?.fingerprint ?? null,
      });
      if (attempt > 5) throw new Error('could not find a free package slug');
    }
    const pkg = inserted;
    await insertIntendedFiles(tx, pkg.id, input.intended_files);
    await insertRecipients(
      tx,
      pkg.id,
      [...resolved.values()].map((r) => ({
        userId: r.userId,
        email: r.email,
        mobile: r.mobile,
        pinRequired: r.pinRequired,
      })),
    );
    return pkg.id;
  });
}
